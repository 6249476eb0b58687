package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.NOW;
import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.ShardSelector;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.WrittenStatuses;
import java.time.Clock;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A repository applies nothing until every repository it depends on runs its revision; one that names itself can
 * never start, and only a person can fix that. A pass reads the dependencies from the controller's cache, so these
 * tests give it no Context: a repository without dependencies, or one whose list stalls on itself first, reads none.
 * Waiting on a real dependency is RepositoryReadinessIT's.
 */
class DependenciesStepTest {

  private final DependenciesStep step = new DependenciesStep(ShardSelector.ALL,
      new WrittenStatuses<>("test", Clock.fixed(NOW, ZoneOffset.UTC), new KubernetesSerialization()));

  @Test
  void aRepositoryWithoutDependenciesHasNothingToWaitFor() throws Exception {
    RepositoryState state = TestRepository.infra().pass(TestRepository.fetched(REVISION));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.finding()).isEmpty();
    assertThat(state.verdict()).isEmpty();
  }

  @Test
  void aRepositoryThatDependsOnItselfStallsAndIsNotLookedAtAgainByItself() {
    RepositoryState state = TestRepository.infra().dependsOn(null, "infra").pass(TestRepository.fetched(REVISION));

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidSpec");
      assertThat(stalled).hasMessage("spec.dependsOn names this FunctionRepository itself");
      assertThat(stalled.lookAgain()).as("a spec change starts the next pass").isEmpty();
    });
    assertThat(state.verdict()).as("not the commit's fault").isEmpty();
  }

  @Test
  void aRepositoryThatDependsOnItselfStallsBeforeGitHasAnswered() {
    RepositoryState state = TestRepository.infra().dependsOn(null, "infra").pass(TestRepository.notFetchedYet());

    assertThatThrownBy(() -> step.run(state)).as("a spec only a person can fix, whatever Git says")
        .isInstanceOf(StepFailure.Stalled.class).hasMessage("spec.dependsOn names this FunctionRepository itself");
  }

  @Test
  void namingItsOwnNamespaceExplicitlyIsStillItself() {
    RepositoryState state = TestRepository.infra().dependsOn("shop", "infra").pass(TestRepository.fetched(REVISION));

    assertThatThrownBy(() -> step.run(state)).isInstanceOf(StepFailure.Stalled.class)
        .hasMessage("spec.dependsOn names this FunctionRepository itself");
  }
}
