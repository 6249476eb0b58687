package io.gitfn.secrets.sops;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The SOPS package is pure: bytes in, values out; no files, sockets, processes, and nothing of age's. */
class SopsPurityTest {

  private final JavaClasses sops = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.secrets.sops");

  @Test
  void sopsDependsOnlyOnJavaJacksonAndSnakeYaml() {
    classes().should().onlyDependOnClassesThat(resideInAnyPackage(
            "io.gitfn.secrets.sops..", "java.lang..", "java.util..", "java.math..", "java.nio.charset..", "java.nio",
            "java.io", "java.security..", "java.time..", "javax.crypto..", "com.fasterxml.jackson.databind..",
            "org.yaml.snakeyaml.."))
        .check(sops);
  }
}
