package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.cli.ReconcileProgress.State;
import io.gitfn.cli.WaitOptions.Until;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When {@code --wait} is done: only once the controller has acted on this very request. */
class ReconcileProgressTest {

  private static final String REQUESTED = "2026-03-01T12:00:00.123Z";

  @Test
  void waitsUntilTheRequestIsHandled() {
    assertThat(ReconcileProgress.of(repository(null, 1L, 1L), REQUESTED, Until.RUNNING).state()).isEqualTo(State.WAITING);
    FunctionRepository earlier = repository("2026-03-01T11:00:00Z", 1L, 1L, condition("Ready", "True", "Succeeded", "revision main@sha1:abc runs: 1 Function ready"));
    assertThat(ReconcileProgress.of(earlier, REQUESTED, Until.RUNNING).state()).isEqualTo(State.WAITING);
  }

  @Test
  void waitsUntilTheNewGenerationIsObserved() {
    FunctionRepository resumed = repository(REQUESTED, 2L, 1L, condition("Ready", "True", "Suspended", "suspended"));
    assertThat(ReconcileProgress.of(resumed, REQUESTED, Until.RUNNING).state()).isEqualTo(State.WAITING);
  }

  @Test
  void doneWhenTheRevisionRuns() {
    FunctionRepository ready = repository(REQUESTED, 2L, 2L,
        condition("Ready", "True", "Succeeded", "revision main@sha1:abc runs: 1 Function ready"));
    assertThat(ReconcileProgress.of(ready, REQUESTED, Until.RUNNING))
        .isEqualTo(new ReconcileProgress(State.DONE, "revision main@sha1:abc runs: 1 Function ready"));
  }

  @Test
  void aRolloutIsWaitedForUnlessOnlyTheApplyIs() {
    FunctionRepository rolling = repository(REQUESTED, 1L, 1L, condition("Ready", "Unknown", "RollingOut", "2 of 2"),
        condition("Reconciling", "True", "RollingOut", "2 of 2"));
    assertThat(ReconcileProgress.of(rolling, REQUESTED, Until.RUNNING).state()).isEqualTo(State.WAITING);
    assertThat(ReconcileProgress.of(rolling, REQUESTED, Until.APPLIED))
        .isEqualTo(new ReconcileProgress(State.DONE, "applied revision main@sha1:abc"));
  }

  @Test
  void aFailedFunctionFailsTheWaitForRunningButNotForApplied() {
    FunctionRepository failed = repository(REQUESTED, 1L, 1L,
        condition("Ready", "False", "FunctionsFailed", "1 of 1 Functions failed: hello: Job hello-1 failed"));
    assertThat(ReconcileProgress.of(failed, REQUESTED, Until.RUNNING)).isEqualTo(
        new ReconcileProgress(State.FAILED, "1 of 1 Functions failed: hello: Job hello-1 failed"));
    assertThat(ReconcileProgress.of(failed, REQUESTED, Until.APPLIED).state()).isEqualTo(State.DONE);
  }

  @Test
  void aDependencyThatDoesNotRunYetIsWaitedFor() {
    FunctionRepository waiting = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "DependencyNotReady", "x"),
        condition("Reconciling", "True", "DependencyNotReady", "x"));
    assertThat(ReconcileProgress.of(waiting, REQUESTED, Until.APPLIED).state()).isEqualTo(State.WAITING);
  }

  @Test
  void failsWithTheStalledMessage() {
    FunctionRepository stalled = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "InvalidRevision", "bad"),
        condition("Stalled", "True", "InvalidRevision", "functions/a.yaml:1: bad"));
    assertThat(ReconcileProgress.of(stalled, REQUESTED, Until.RUNNING))
        .isEqualTo(new ReconcileProgress(State.FAILED, "functions/a.yaml:1: bad"));
  }

  @Test
  void keepsWaitingWhileRetryingAndFailsWhenNotReadyAndNotRetrying() {
    FunctionRepository retrying = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "ApplyFailed", "retry"),
        condition("Reconciling", "True", "ApplyFailed", "retry"));
    assertThat(ReconcileProgress.of(retrying, REQUESTED, Until.RUNNING).state()).isEqualTo(State.WAITING);
    FunctionRepository notReady = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "X", "it broke"));
    assertThat(ReconcileProgress.of(notReady, REQUESTED, Until.RUNNING)).isEqualTo(new ReconcileProgress(State.FAILED, "it broke"));
  }

  @Test
  void aSuspendedRepositoryIsNotApplied() {
    FunctionRepository suspended = repository(REQUESTED, 1L, 1L, condition("Ready", "True", "Suspended", "suspended"));
    assertThat(ReconcileProgress.of(suspended, REQUESTED, Until.RUNNING).state()).isEqualTo(State.FAILED);
  }

  private static FunctionRepository repository(String handled, Long generation, Long observed, Condition... conditions) {
    FunctionRepository repository = new FunctionRepository();
    repository.setMetadata(new ObjectMetaBuilder().withName("infra").withNamespace("shop").withGeneration(generation).build());
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastHandledRequestedAt(handled);
    status.setObservedGeneration(observed);
    status.setLastAppliedRevision("main@sha1:abc");
    status.setConditions(List.of(conditions));
    repository.setStatus(status);
    return repository;
  }

  private static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message).build();
  }
}
