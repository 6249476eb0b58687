package io.gitfn;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The packages form layers: none depends on another that depends back on it, and nothing but the composition root
 * ({@code io.gitfn.controller}) reaches into a reconciler; the commands start a {@code Controller}, and the keys a
 * reconciler writes live in {@code io.gitfn.api}.
 */
class LayeringTest {

  private final JavaClasses gitfn = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.gitfn");

  @Test
  void packagesHaveNoCycles() {
    slices().matching("io.gitfn.(**)").should().beFreeOfCycles().check(gitfn);
  }

  @Test
  void nothingButTheCompositionRootDependsOnAReconciler() {
    noClasses().that().resideOutsideOfPackages("io.gitfn.reconcile..", "io.gitfn.controller")
        .should().dependOnClassesThat().haveSimpleNameEndingWith("Reconciler")
        .check(gitfn);
  }

  @Test
  void theReconcilersDoNotDependOnTheCompositionRoot() {
    noClasses().that().resideInAPackage("io.gitfn.reconcile..")
        .should().dependOnClassesThat().resideInAPackage("io.gitfn.controller")
        .check(gitfn);
  }
}
