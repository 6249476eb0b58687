package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionProgress.Phase;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.PendingFunction;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StatusDraft;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;
import io.gitfn.reconcile.repository.RepositoryConditions.Shape;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Whether the applied revision runs, judged from its Functions' progress: Ready True once every Function runs it,
 * Unknown with RollingOut while any builds or rolls out, False with FunctionsFailed once one failed and none still
 * moves; status.pending names those that do not run it, and the forge hears the same. A pass that applied a revision
 * announces it once, in Ready's Event; the Functions' progress alone is no news.
 */
class ProgressStepTest {

  private static final String APPLIED = "Applied revision " + REVISION + ": 2 Functions (2 created, 0 updated, 0"
      + " deleted)";

  private final ProgressStep step = new ProgressStep();

  @Test
  void everyFunctionRunningTheRevisionMakesItReadyAndTheForgeHearsSuccess() throws Exception {
    RepositoryState state = pass(running("hello"), running("orders"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.finding()).contains(new Finding(Shape.SETTLED, "True", "Succeeded", "revision " + REVISION
        + " runs: 2 Functions ready", false));
    assertThat(state.status().getPending()).as("nobody is pending").isNull();
    assertThat(state.verdict()).contains(new Verdict(REVISION, CommitState.SUCCESS, "Succeeded",
        "runs: 2 Functions ready"));
  }

  @Test
  void aFunctionThatStillBuildsKeepsTheRevisionRollingOutAndTheRepositoryLooksAgainSoon() throws Exception {
    RepositoryState state = pass(running("hello"), building("orders"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.within(Requeue.ROLLOUT_CHECK));
    assertThat(state.finding()).contains(new Finding(Shape.RECONCILING, "Unknown", "RollingOut", "revision "
        + REVISION + " is applied; 1 of 2 Functions do not run it yet: orders: Job orders-1 builds it", false));
    assertThat(state.status().getPending()).extracting(PendingFunction::getName, PendingFunction::getPhase,
        PendingFunction::getReason).containsExactly(Tuple.tuple("orders", "RollingOut", "JobRunning"));
    assertThat(state.verdict()).contains(new Verdict(REVISION, CommitState.PENDING, "RollingOut",
        "applied; 1 of 2 Functions rolling out"));
  }

  @Test
  void aFailedFunctionWithNoneStillMovingFailsTheRevisionAndTheForgeHearsWhich() throws Exception {
    RepositoryState state = pass(running("hello"), failed("billing"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.finding()).contains(new Finding(Shape.SETTLED, "False", "FunctionsFailed", "revision "
        + REVISION + " is applied, but 1 of 2 Functions failed: billing: Job billing-1 failed", true));
    assertThat(state.status().getPending()).extracting(PendingFunction::getName, PendingFunction::getPhase)
        .containsExactly(Tuple.tuple("billing", "Failed"));
    assertThat(state.verdict()).contains(new Verdict(REVISION, CommitState.FAILURE, "FunctionsFailed",
        "1 of 2 Functions failed: billing: Job billing-1 failed"));
  }

  @Test
  void whileAnyFunctionStillMovesAFailureDoesNotYetFailTheRevisionButIsNamedFirst() throws Exception {
    RepositoryState state = pass(building("orders"), failed("billing"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.within(Requeue.ROLLOUT_CHECK));
    assertThat(state.finding()).hasValueSatisfying(f -> {
      assertThat(f.ready()).isEqualTo("Unknown");
      assertThat(f.reason()).isEqualTo("RollingOut");
      assertThat(f.message()).contains("1 of 2 Functions do not run it yet and 1 failed");
    });
    assertThat(state.status().getPending()).extracting(PendingFunction::getName).containsExactly("billing", "orders");
    assertThat(state.verdict()).hasValueSatisfying(v -> assertThat(v.state()).isEqualTo(CommitState.PENDING));
  }

  @Test
  void aNewApplyThatStillRollsOutIsAnnouncedWithTheApplyAloneNotTheFunctionsWords() throws Exception {
    RepositoryState state = pass(running("hello"), building("orders"));
    state.appliedNote(APPLIED);

    step.run(state);

    assertThat(events(state)).containsExactly(new StatusDraft.Event(false, "RollingOut", APPLIED));
  }

  @Test
  void aNewApplyThatRunsAtOnceIsAnnouncedWithWhatRuns() throws Exception {
    RepositoryState state = pass(running("hello"), running("orders"));
    state.appliedNote(APPLIED);

    step.run(state);

    assertThat(events(state)).containsExactly(new StatusDraft.Event(false, "Succeeded", APPLIED + "; revision "
        + REVISION + " runs: 2 Functions ready"));
  }

  @Test
  void aNewApplyThatFailedIsAnnouncedAsAWarningNamingWhatFailed() throws Exception {
    RepositoryState state = pass(running("hello"), failed("billing"));
    state.appliedNote(APPLIED);

    step.run(state);

    assertThat(events(state)).containsExactly(new StatusDraft.Event(true, "FunctionsFailed", "revision " + REVISION
        + " is applied, but 1 of 2 Functions failed: billing: Job billing-1 failed"));
  }

  @Test
  void aPassThatAppliedNothingAnnouncesNothingWhileOnlyTheRolloutsWordsChange() throws Exception {
    FunctionRepositoryStatus before = new FunctionRepositoryStatus();
    before.setObservedGeneration(1L);
    before.setConditions(List.of(new ConditionBuilder().withType("Ready").withStatus("Unknown")
        .withReason("RollingOut").withMessage("revision " + REVISION + " is applied; 2 of 2 Functions do not run it"
            + " yet: hello: building; orders: building").build()));
    RepositoryState state = TestRepository.infra().status(before).pass(TestRepository.fetched(REVISION));
    state.functions(List.of(running("hello"), building("orders")));

    step.run(state);

    assertThat(events(state)).as("a message that moves is no Event").isEmpty();
  }

  private static RepositoryState pass(FunctionProgress... functions) {
    RepositoryState state = TestRepository.infra().pass(TestRepository.fetched(REVISION));
    state.functions(List.of(functions));
    return state;
  }

  /** The pass's Events once its summary turned the finding into Ready. */
  private static List<StatusDraft.Event> events(RepositoryState state) {
    new RepositoryConditions().summarize(state);
    return state.draft().events();
  }

  private static FunctionProgress running(String name) {
    return new FunctionProgress("shop", name, 1, Phase.RUNNING, "DeploymentReady", "Deployment " + name
        + " is available");
  }

  private static FunctionProgress building(String name) {
    return new FunctionProgress("shop", name, 1, Phase.ROLLING_OUT, "JobRunning", "Job " + name + "-1 builds it");
  }

  private static FunctionProgress failed(String name) {
    return new FunctionProgress("shop", name, 1, Phase.FAILED, "JobFailed", "Job " + name + "-1 failed");
  }
}
