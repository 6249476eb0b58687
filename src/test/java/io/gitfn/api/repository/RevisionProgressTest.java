package io.gitfn.api.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionProgress.Phase;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A FunctionRepository is Ready when its revision runs, not when it is applied: every Function of it must run the
 * applied spec, and status names those that do not. The controller and {@code gitfn up} judge by the same rule.
 */
class RevisionProgressTest {

  private static final String REVISION = "main@sha1:" + "a".repeat(40);

  @Test
  void readyOnlyWhenEveryFunctionRuns() {
    RevisionProgress progress = of(progress("hello", Phase.RUNNING, "DeploymentReady", "ok"),
        progress("bye", Phase.RUNNING, "DeploymentReady", "ok"));

    assertThat(progress.ready()).isEqualTo("True");
    assertThat(progress.reason()).isEqualTo("Succeeded");
    assertThat(progress.message()).isEqualTo("revision " + REVISION + " runs: 2 Functions ready");
    assertThat(progress.pending()).isEmpty();
    assertThat(progress.brief()).isEqualTo("runs: 2 Functions ready");
  }

  @Test
  void appliedButNotRunningIsRollingOutWithTheFunctionsStillInProgress() {
    RevisionProgress progress = of(progress("hello", Phase.RUNNING, "DeploymentReady", "ok"),
        progress("bye", Phase.ROLLING_OUT, "JobRunning", "Job bye-1 builds registry/bye:1"));

    assertThat(progress.ready()).isEqualTo("Unknown");
    assertThat(progress.reason()).isEqualTo("RollingOut");
    assertThat(progress.message()).isEqualTo("revision " + REVISION
        + " is applied; 1 of 2 Functions do not run it yet: bye: Job bye-1 builds registry/bye:1");
    assertThat(progress.pending()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("bye");
      assertThat(p.getNamespace()).isEqualTo("shop");
      assertThat(p.getPhase()).isEqualTo("RollingOut");
      assertThat(p.getReason()).isEqualTo("JobRunning");
    });
    assertThat(progress.brief()).isEqualTo("applied; 1 of 2 Functions rolling out");
  }

  @Test
  void aFailedFunctionMakesItNotReadyOnceNothingElseMoves() {
    RevisionProgress progress = of(progress("hello", Phase.FAILED, "JobFailed", "Job hello-1 failed: exit 1"),
        progress("bye", Phase.RUNNING, "DeploymentReady", "ok"));

    assertThat(progress.ready()).isEqualTo("False");
    assertThat(progress.reason()).isEqualTo("FunctionsFailed");
    assertThat(progress.message()).isEqualTo("revision " + REVISION
        + " is applied, but 1 of 2 Functions failed: hello: Job hello-1 failed: exit 1");
    assertThat(progress.pending()).extracting("phase").containsExactly("Failed");
    assertThat(progress.brief()).isEqualTo("1 of 2 Functions failed: hello: Job hello-1 failed: exit 1");
  }

  @Test
  void failedFunctionsAreListedFirstWhileOthersStillMove() {
    RevisionProgress progress = of(progress("a", Phase.ROLLING_OUT, "DeploymentWaiting", "rolling"),
        progress("b", Phase.FAILED, "DeploymentFailed", "deadline"));

    assertThat(progress.reason()).isEqualTo("RollingOut");
    assertThat(progress.message()).endsWith("1 of 2 Functions do not run it yet and 1 failed: b: deadline; a: rolling");
    assertThat(progress.pending()).extracting("name").containsExactly("b", "a");
  }

  @Test
  void aPinnedFunctionDoesNotHoldTheRepositoryBackAndIsNamed() {
    RevisionProgress progress = of(progress("hello", Phase.PINNED, "Pinned", "pinned to main@sha1:bbb"));

    assertThat(progress.runs()).isTrue();
    assertThat(progress.message())
        .endsWith("runs: 1 Function ready; pinned, so running another revision: hello: pinned to main@sha1:bbb");
  }

  @Test
  void pendingIsBoundedAndTheMessageCountsTheRest() {
    RevisionProgress progress = of(IntStream.range(0, 25)
        .mapToObj(i -> progress("fn-" + i, Phase.ROLLING_OUT, "Pending", "new")).toArray(FunctionProgress[]::new));

    assertThat(progress.pending()).hasSize(FunctionRepositoryStatus.PENDING_LIMIT);
    assertThat(progress.message()).contains("25 of 25 Functions").endsWith("; and 5 more");
  }

  @Test
  void aFunctionInAnotherNamespaceIsNamedWithIt() {
    RevisionProgress progress = of(new FunctionProgress("edge", "proxy", 1, Phase.FAILED, "JobFailed", "broken"));

    assertThat(progress.message()).endsWith("failed: edge/proxy: broken");
  }

  private static RevisionProgress of(FunctionProgress... functions) {
    return RevisionProgress.of(REVISION, "shop", List.of(functions));
  }

  private static FunctionProgress progress(String name, Phase phase, String reason, String message) {
    return new FunctionProgress("shop", name, 1, phase, reason, message);
  }
}
