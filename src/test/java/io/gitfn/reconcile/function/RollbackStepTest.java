package io.gitfn.reconcile.function;

import static io.gitfn.reconcile.function.Passes.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.ContentKey;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.function.Rollout.Release;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Once the rollout was observed: while a rollback holds, Running says so and why; otherwise a release whose rollout
 * failed is quarantined and the next pass is asked for at once. Never for a pinned Function, nor one that opted out,
 * nor before anything was released. What the quarantine holds is AutoRollbacksTest's.
 */
class RollbackStepTest {

  private static final ContentKey GOOD = new ContentKey("a".repeat(64));
  private static final ContentKey BAD = new ContentKey("b".repeat(64));
  private static final Release BAD_RELEASE = new Release(BAD, "registry.local:5000/shop/orders:b");

  private final RollbackStep step = new RollbackStep(new AutoRollbacks(true, Passes.CLOCK, new SimpleMeterRegistry()));

  @Test
  void aReleaseWhoseRolloutFailedIsQuarantinedAndThePassLooksAgainAtOnce() {
    FunctionState state = failedRollout(function());

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    AutoRollback quarantine = state.status().getRollback();
    assertThat(quarantine.getFailedContentKey()).isEqualTo(BAD.value());
    assertThat(quarantine.getRestoredContentKey()).isEqualTo(GOOD.value());
    assertThat(quarantine.getReason()).isEqualTo("DeploymentFailed");
    assertThat(state.requeue()).contains(Requeue.ROLL_BACK_NOW);
  }

  @Test
  void whileARollbackHoldsRunningSaysItRolledBackOnceTheOldVersionRunsAgain() {
    FunctionState state = Passes.of(function());
    state.holding(quarantine());
    state.rolledOut(true);

    step.run(state);

    assertThat(state.draft().condition("Running")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("RolledBack");
      assertThat(c.getMessage()).startsWith("rolled back to revision main@sha1:good");
    });
  }

  @Test
  void whileARollbackHoldsAndTheOldVersionStillRollsOutRunningSaysItRollsBack() {
    FunctionState state = Passes.of(function());
    state.holding(quarantine());
    state.rolledOut(false);

    step.run(state);

    assertThat(state.draft().condition("Running")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("Unknown");
      assertThat(c.getReason()).isEqualTo("DeploymentWaiting");
      assertThat(c.getMessage()).startsWith("rolling back to revision main@sha1:good");
    });
    assertThat(state.requeue()).as("the Deployment's changes wake the Function").isEmpty();
  }

  @Test
  void aPinnedFunctionIsNeverRolledBack() {
    FunctionState state = failedRollout(function());
    state.pin("main@sha1:bad");

    step.run(state);

    assertThat(state.status().getRollback()).isNull();
    assertThat(state.requeue()).isEmpty();
  }

  @Test
  void aFunctionThatOptedOutIsNotRolledBack() {
    FunctionState state = failedRollout(function(TestFunction.inline()
        .metadataAnnotation(Annotations.AUTO_ROLLBACK, "false")));

    step.run(state);

    assertThat(state.status().getRollback()).isNull();
  }

  @Test
  void nothingReleasedYetIsNothingToRollBack() {
    FunctionState state = failedRollout(function());
    state.release(Optional.empty());

    step.run(state);

    assertThat(state.status().getRollback()).isNull();
    assertThat(state.draft().condition("Running")).map(Condition::getReason).hasValue("DeploymentFailed");
  }

  /** A pass that released the bad version and saw its rollout pass its deadline. */
  private static FunctionState failedRollout(Function fn) {
    FunctionState state = Passes.of(fn);
    state.release(Optional.of(BAD_RELEASE));
    state.condition("Running", "False", "DeploymentFailed", "Deployment orders has not rolled out within its"
        + " progress deadline of 600 s");
    return state;
  }

  /** orders, whose history has the bad key built (newest) and the good one built and rolled out. */
  private static Function function() {
    return function(TestFunction.inline());
  }

  private static Function function(TestFunction orders) {
    Function fn = orders.build();
    fn.getMetadata().setGeneration(2L);
    return Passes.withHistory(fn,
        entry(BAD, BAD_RELEASE.image(), "main@sha1:bad", "Succeeded", null),
        entry(GOOD, "registry.local:5000/shop/orders:a", "main@sha1:good", "Succeeded", "2026-11-25T00:00:00Z"));
  }

  private static AutoRollback quarantine() {
    AutoRollback quarantine = new AutoRollback();
    quarantine.setFailedContentKey(BAD.value());
    quarantine.setFailedRevision("main@sha1:bad");
    quarantine.setReason("DeploymentFailed");
    quarantine.setMessage("past its deadline");
    quarantine.setRestoredContentKey(GOOD.value());
    quarantine.setRestoredRevision("main@sha1:good");
    return quarantine;
  }
}
