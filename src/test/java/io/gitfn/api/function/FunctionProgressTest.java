package io.gitfn.api.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.gitfn.api.function.FunctionProgress.Phase;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a Function runs what its spec says, as its FunctionRepository's Ready judges it. */
class FunctionProgressTest {

  @Test
  void runsOnceAllThreeConditionsAreTrueForTheCurrentGeneration() {
    Function fn = function(2, 2, true_("ConfigurationReady"), true_("BuildReady"),
        condition("Running", "True", "DeploymentReady", "Deployment hello is available"));

    assertThat(FunctionProgress.of(fn)).isEqualTo(new FunctionProgress("shop", "hello", 2, Phase.RUNNING,
        "DeploymentReady", "Deployment hello is available"));
    assertThat(FunctionProgress.of(fn).settled()).isTrue();
  }

  @Test
  void aSpecTheControllerHasNotSeenIsRollingOutWhateverItsConditionsSay() {
    Function fn = function(3, 2, true_("ConfigurationReady"), true_("BuildReady"), true_("Running"));

    FunctionProgress progress = FunctionProgress.of(fn);
    assertThat(progress.phase()).isEqualTo(Phase.ROLLING_OUT);
    assertThat(progress.message()).isEqualTo("the controller has not acted on its current spec yet");
    assertThat(FunctionProgress.of(function(1, null)).phase()).isEqualTo(Phase.ROLLING_OUT);
  }

  @Test
  void aBuildThatRunsIsRollingOutEvenWhileTheOldDeploymentRuns() {
    Function fn = function(2, 2, true_("ConfigurationReady"),
        condition("BuildReady", "Unknown", "JobRunning", "Job hello-abc builds registry/hello:abc"), true_("Running"));

    assertThat(FunctionProgress.of(fn)).extracting(FunctionProgress::phase, FunctionProgress::reason,
        FunctionProgress::message).containsExactly(Phase.ROLLING_OUT, "JobRunning",
        "Job hello-abc builds registry/hello:abc");
  }

  @Test
  void anyFalseConditionFailsIt() {
    Function fn = function(2, 2, true_("ConfigurationReady"),
        condition("BuildReady", "False", "JobFailed", "Job hello-abc failed"),
        condition("Running", "Unknown", "DeploymentWaiting", "rolling"));

    assertThat(FunctionProgress.of(fn)).extracting(FunctionProgress::phase, FunctionProgress::reason)
        .containsExactly(Phase.FAILED, "JobFailed");
    assertThat(FunctionProgress.of(fn).settled()).isFalse();
  }

  @Test
  void aMissingConditionIsNotReportedYet() {
    Function fn = function(1, 1, true_("ConfigurationReady"), true_("BuildReady"));

    assertThat(FunctionProgress.of(fn)).extracting(FunctionProgress::phase, FunctionProgress::message)
        .containsExactly(Phase.ROLLING_OUT, "Running is not reported yet");
  }

  @Test
  void aPinnedFunctionIsSettledWithoutRunningItsSpec() {
    Function fn = function(1, 1, condition("BuildReady", "Unknown", "JobRunning", "x"));
    fn.getStatus().setPinnedRevision("main@sha1:" + "a".repeat(40));

    assertThat(FunctionProgress.of(fn).phase()).isEqualTo(Phase.PINNED);
    assertThat(FunctionProgress.of(fn).settled()).isTrue();
  }

  @Test
  void movesOnlyWithAnotherPhaseReasonOrGeneration() {
    FunctionProgress building = new FunctionProgress("shop", "hello", 1, Phase.ROLLING_OUT, "JobRunning", "a");

    assertThat(building.movedFrom(new FunctionProgress("shop", "hello", 1, Phase.ROLLING_OUT, "JobRunning", "b")))
        .isFalse();
    assertThat(building.movedFrom(new FunctionProgress("shop", "hello", 1, Phase.ROLLING_OUT, "JobQueued", "a")))
        .isTrue();
    assertThat(building.movedFrom(new FunctionProgress("shop", "hello", 2, Phase.ROLLING_OUT, "JobRunning", "a")))
        .as("an edited spec, same phase").isTrue();
    assertThat(building.movedFrom(null)).isTrue();
  }

  private static Function function(long generation, Integer observed, Condition... conditions) {
    Function fn = new Function();
    fn.getMetadata().setName("hello");
    fn.getMetadata().setNamespace("shop");
    fn.getMetadata().setGeneration(generation);
    if (observed != null) {
      FunctionStatus status = new FunctionStatus();
      status.setObservedGeneration(observed.longValue());
      status.setConditions(List.of(conditions));
      fn.setStatus(status);
    }
    return fn;
  }

  private static Condition true_(String type) {
    return condition(type, "True", "Ok", type + " ok");
  }

  private static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message).build();
  }
}
