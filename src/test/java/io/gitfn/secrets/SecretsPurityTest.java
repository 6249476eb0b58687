package io.gitfn.secrets;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.gitfn.api.KubernetesNames;
import io.gitfn.manifest.EncryptedDocument;
import org.junit.jupiter.api.Test;

/**
 * Decrypting a revision's Secrets is pure: encrypted documents and identities in, Secrets out (and, from a Function's
 * spec, which of them it reads). Of the JDK it uses
 * neither files, sockets nor processes, so plaintext goes nowhere but to the caller.
 */
class SecretsPurityTest {

  private final JavaClasses secrets = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn.secrets");

  @Test
  void secretsDependOnTheirFormatsTheKubernetesModelNamesAndTheJdksValuesAndCryptoOnly() {
    classes().that().resideInAPackage("io.gitfn.secrets")
        .should().onlyDependOnClassesThat(resideInAnyPackage("io.gitfn.secrets..", "java.lang..", "java.util..",
                "java.nio", "java.nio.charset..", "java.security..", "javax.crypto..",
                "com.fasterxml.jackson.databind..", "io.fabric8.kubernetes.api.model..", "io.gitfn.api.function..")
            .or(type(EncryptedDocument.class))
            .or(type(KubernetesNames.class)))
        .check(secrets);
  }
}
