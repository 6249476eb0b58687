package io.gitfn.source;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Git I/O lives in io.gitfn.source and nowhere else: other layers see revisions and snapshots, not JGit. */
class GitStaysInSourceTest {

  private final JavaClasses main = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn");

  @Test
  void onlyTheSourcePackageUsesJGitOrSsh() {
    noClasses()
        .that().resideOutsideOfPackage("io.gitfn.source..")
        .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jgit..", "org.apache.sshd..")
        .check(main);
  }
}
