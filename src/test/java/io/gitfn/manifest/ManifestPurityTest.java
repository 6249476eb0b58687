package io.gitfn.manifest;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import org.junit.jupiter.api.Test;

/** The manifest package is pure: it sees files only through SourceTree, and talks to no cluster or network. */
class ManifestPurityTest {

  private final JavaClasses manifest = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.manifest");

  @Test
  void manifestDependsOnlyOnTheApiTheKubernetesModelJacksonSnakeYamlAndJava() {
    classes().should().onlyDependOnClassesThat(
            resideInAnyPackage(
                "io.gitfn.manifest..",
                "io.gitfn.api..",
                "java..",
                "com.fasterxml.jackson..",
                "org.yaml.snakeyaml..",
                "io.fabric8.kubernetes.api.model..")
                .or(type(CustomResource.class)))
        .check(manifest);
  }

  @Test
  void manifestOpensNoFileSocketOrProcess() {
    noClasses().should().dependOnClassesThat(
            resideInAnyPackage("java.nio.file..", "java.net..", "java.nio.channels..")
                .or(type(java.io.File.class))
                .or(type(java.io.FileInputStream.class))
                .or(type(java.io.FileOutputStream.class))
                .or(type(java.io.FileReader.class))
                .or(type(java.io.RandomAccessFile.class))
                .or(type(ProcessBuilder.class))
                .or(type(Runtime.class)))
        .check(manifest);
  }
}
