package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.cli.ReconcileProgress.State;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When {@code --wait} is done: only once the controller has acted on this very request. */
class ReconcileProgressTest {

  private static final String REQUESTED = "2026-03-01T12:00:00.123Z";

  @Test
  void waitsUntilTheRequestIsHandled() {
    assertThat(ReconcileProgress.of(repository(null, 1L, 1L), REQUESTED).state()).isEqualTo(State.WAITING);
    FunctionRepository earlier = repository("2026-03-01T11:00:00Z", 1L, 1L, condition("Ready", "True", "Applied", "ok"));
    assertThat(ReconcileProgress.of(earlier, REQUESTED).state()).isEqualTo(State.WAITING);
  }

  @Test
  void waitsUntilTheNewGenerationIsObserved() {
    FunctionRepository resumed = repository(REQUESTED, 2L, 1L, condition("Ready", "True", "Suspended", "suspended"));
    assertThat(ReconcileProgress.of(resumed, REQUESTED).state()).isEqualTo(State.WAITING);
  }

  @Test
  void appliedWhenReady() {
    FunctionRepository ready = repository(REQUESTED, 2L, 2L, condition("Ready", "True", "Applied", "ok"));
    assertThat(ReconcileProgress.of(ready, REQUESTED))
        .isEqualTo(new ReconcileProgress(State.APPLIED, "main@sha1:abc"));
  }

  @Test
  void failsWithTheStalledMessage() {
    FunctionRepository stalled = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "InvalidRevision", "bad"),
        condition("Stalled", "True", "InvalidRevision", "functions/a.yaml:1: bad"));
    assertThat(ReconcileProgress.of(stalled, REQUESTED))
        .isEqualTo(new ReconcileProgress(State.FAILED, "functions/a.yaml:1: bad"));
  }

  @Test
  void keepsWaitingWhileRetryingAndFailsWhenNotReadyAndNotRetrying() {
    FunctionRepository retrying = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "ApplyFailed", "retry"),
        condition("Reconciling", "True", "ApplyFailed", "retry"));
    assertThat(ReconcileProgress.of(retrying, REQUESTED).state()).isEqualTo(State.WAITING);
    FunctionRepository notReady = repository(REQUESTED, 1L, 1L, condition("Ready", "False", "X", "it broke"));
    assertThat(ReconcileProgress.of(notReady, REQUESTED)).isEqualTo(new ReconcileProgress(State.FAILED, "it broke"));
  }

  @Test
  void aSuspendedRepositoryIsNotApplied() {
    FunctionRepository suspended = repository(REQUESTED, 1L, 1L, condition("Ready", "True", "Suspended", "suspended"));
    assertThat(ReconcileProgress.of(suspended, REQUESTED).state()).isEqualTo(State.FAILED);
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
