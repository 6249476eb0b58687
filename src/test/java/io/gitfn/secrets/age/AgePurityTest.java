package io.gitfn.secrets.age;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** age is pure: the JDK's crypto and collections only, no other gitfn package, no file, socket or process. */
class AgePurityTest {

  private final JavaClasses age = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.secrets.age");

  @Test
  void ageDependsOnlyOnItselfAndTheJdk() {
    classes().should().onlyDependOnClassesThat(resideInAnyPackage("io.gitfn.secrets.age..", "java..", "javax.crypto.."))
        .check(age);
  }

  @Test
  void ageOpensNoFileSocketOrProcess() {
    noClasses().should().dependOnClassesThat(
            resideInAnyPackage("java.nio.file..", "java.net..", "java.nio.channels..")
                .or(type(java.io.File.class))
                .or(type(java.io.FileInputStream.class))
                .or(type(java.io.FileOutputStream.class))
                .or(type(ProcessBuilder.class))
                .or(type(Runtime.class)))
        .check(age);
  }
}
