package io.gitfn.build;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** build, workload, image and preview compute objects; they talk to no cluster, Git, server, file, socket or process. */
class PureCoreTest {

  private final JavaClasses core = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.build", "io.gitfn.workload", "io.gitfn.image", "io.gitfn.preview");

  @Test
  void buildAndWorkloadUseNoClientGitOrServer() {
    noClasses().should().dependOnClassesThat(resideInAnyPackage(
            "io.fabric8.kubernetes.client..", "org.eclipse.jgit..", "org.eclipse.jetty..", "io.javaoperatorsdk..",
            "io.gitfn.source..", "io.gitfn.reconcile..", "io.gitfn.cli..", "io.gitfn.trigger.."))
        .check(core);
  }

  @Test
  void buildAndWorkloadOpenNoFileSocketOrProcess() {
    noClasses().should().dependOnClassesThat(
            resideInAnyPackage("java.nio.file..", "java.net..", "java.nio.channels..")
                .or(type(java.io.File.class))
                .or(type(java.io.FileInputStream.class))
                .or(type(java.io.FileOutputStream.class))
                .or(type(ProcessBuilder.class))
                .or(type(Runtime.class)))
        .check(core);
  }

  @Test
  void onlyBundledRuntimesReadsResourcesOfTheJar() {
    noClasses().that().doNotHaveFullyQualifiedName(BundledRuntimes.class.getName())
        .should().callMethod(Class.class, "getResourceAsStream", String.class)
        .orShould().callMethod(ClassLoader.class, "getResourceAsStream", String.class)
        .orShould().callMethod(ClassLoader.class, "getSystemResourceAsStream", String.class)
        .check(core);
  }
}
