package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StatusDraft.Event;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A step that fails shows on the condition it answers for: False when only a person can fix it, Unknown while it is
 * retried or waits. Its Event is a Warning unless nothing failed. A Function has no beat: only changes start its
 * passes.
 */
class FunctionConditionsTest {

  private final FunctionConditions summary = new FunctionConditions();
  private final FunctionState state = Passes.of(TestFunction.inline().build());

  @Test
  void aStallIsFalseOnTheConditionTheStepAnswersForWithAWarning() {
    summary.failed(state, new PinStep(null), StepFailure.stalled("PinnedRevisionUnknown", "pinned to nothing"));

    assertThat(state.draft().condition("ConfigurationReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("PinnedRevisionUnknown");
      assertThat(c.getMessage()).isEqualTo("pinned to nothing");
    });
    assertThat(state.draft().events()).containsExactly(new Event(true, "PinnedRevisionUnknown", "pinned to nothing"));
  }

  @Test
  void aRetryIsUnknownOnTheConditionTheStepAnswersForWithAWarning() {
    String message = "the Buildless step failed and is retried with backoff: the API server did not answer";

    summary.failed(state, new BuildlessStep(null, BuildSettings.defaults()),
        StepFailure.retry("ReconciliationFailed", message, null));

    assertThat(state.draft().condition("BuildReady")).map(Condition::getStatus).hasValue("Unknown");
    assertThat(state.draft().events()).containsExactly(new Event(true, "ReconciliationFailed", message));
  }

  @Test
  void aWaitIsUnknownWithANormalEventUnlessWhatItWaitsOnFailed() {
    FunctionState failing = Passes.of(TestFunction.inline().build());

    summary.failed(state, new ObserveRolloutStep(null), StepFailure.waiting("DeploymentWaiting", "waiting",
        Duration.ofSeconds(30)));
    summary.failed(failing, new ObserveRolloutStep(null), StepFailure.waitingOnFailure("SourceUpdateFailed",
        "Git check failed", Duration.ofSeconds(30)));

    assertThat(state.draft().condition("Running")).map(Condition::getStatus).hasValue("Unknown");
    assertThat(state.draft().events()).singleElement().satisfies(e -> assertThat(e.warning()).isFalse());
    assertThat(failing.draft().events()).singleElement().satisfies(e -> assertThat(e.warning()).isTrue());
  }

  @Test
  void aStepThatAnswersForNoConditionShowsOnRunning() {
    Step<FunctionState> unowned = s -> Result.next();

    summary.failed(state, unowned, StepFailure.stalled("InvalidFunctionSpec", "broken"));

    assertThat(state.draft().conditions()).extracting(Condition::getType).containsExactly("Running");
  }

  @Test
  void theStatusNamesTheRuntimeAndAFunctionHasNoBeatOfItsOwn() {
    FunctionState python = Passes.of(TestFunction.inline().runtime(FunctionRuntime.PYTHON312).build());

    summary.summarize(python);

    assertThat(python.status().getRuntime()).isEqualTo(FunctionRuntime.PYTHON312);
    assertThat(summary.beat(python)).isEmpty();
  }
}
