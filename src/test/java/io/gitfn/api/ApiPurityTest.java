package io.gitfn.api;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import org.junit.jupiter.api.Test;

/** The api package is pure: resource types and their annotations, no I/O and no other gitfn layer. */
class ApiPurityTest {

  private final JavaClasses api = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.api");

  @Test
  void apiDependsOnlyOnTheKubernetesModelAndAnnotations() {
    classes().should().onlyDependOnClassesThat(
            resideInAnyPackage(
                "io.gitfn.api..",
                "java.lang..",
                "java.util..",
                "java.time..",
                "com.fasterxml.jackson.annotation..",
                "io.fabric8.kubernetes.api.model",
                "io.fabric8.kubernetes.model.annotation..",
                "io.fabric8.generator.annotation..",
                "io.fabric8.crd.generator.annotation..")
                .or(type(CustomResource.class)))
        .check(api);
  }
}
