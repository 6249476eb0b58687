package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static io.gitfn.reconcile.repository.TestRepository.URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;
import io.gitfn.reconcile.repository.RepositoryConditions.Shape;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * A suspended repository applies nothing: Ready says it is suspended, with what Git holds, until it is resumed.
 */
class SuspendStepTest {

  private final SuspendStep step = new SuspendStep();

  @Test
  void aSuspendedRepositoryIsReadyAsSuspendedNamingWhatGitHoldsAndAttemptsNothing() throws Exception {
    RepositoryState state = TestRepository.infra().pass(TestRepository.fetched(REVISION));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.finding()).contains(new Finding(Shape.SETTLED, "True", "Suspended", "suspended; Git holds "
        + REVISION + ", nothing is applied until resumed", false));
    assertThat(state.attempted()).as("no revision is applied").isEmpty();
    assertThat(state.verdict()).as("the forge hears nothing about a revision nobody applied").isEmpty();
  }

  @Test
  void readySaysSuspendedAndNeitherReconcilingNorStalled() throws Exception {
    RepositoryState state = TestRepository.infra().pass(TestRepository.fetched(REVISION));

    step.run(state);
    new RepositoryConditions().summarize(state);

    assertThat(state.draft().conditions()).extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly(Tuple.tuple("Ready", "True", "Suspended"));
  }

  @Test
  void beforeGitFirstAnswersASuspendedRepositoryWaitsForTheFetchWithoutAWarning() {
    RepositoryState state = TestRepository.infra().pass(TestRepository.notFetchedYet());

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Waiting.class, waiting -> {
      assertThat(waiting.reason()).isEqualTo("SourceNotReady");
      assertThat(waiting).hasMessage("fetching " + URL + " for the first time");
      assertThat(waiting.lookAgain()).isEqualTo(Requeue.FIRST_FETCH);
      assertThat(waiting.warning()).as("nothing failed").isFalse();
    });
    assertThat(state.finding()).isEmpty();
  }

  @Test
  void aSourceWhoseChecksFailedFromTheStartWaitsOnTheWatcherWithAWarning() {
    RepositoryState state = TestRepository.infra().pass(TestRepository.neverFetched("ls-remote: connection refused"));

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Waiting.class, waiting -> {
      assertThat(waiting.reason()).isEqualTo("SourceFailed");
      assertThat(waiting).hasMessage("Git check failed; keeping nothing: ls-remote: connection refused");
      assertThat(waiting.lookAgain()).isEqualTo(Requeue.FIRST_FETCH);
      assertThat(waiting.warning()).as("the watcher's checks fail").isTrue();
    });
  }
}
