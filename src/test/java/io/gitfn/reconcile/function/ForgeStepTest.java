package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.Annotations;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.GitRepositoryStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.GitHosts;
import io.gitfn.reconcile.Result;
import io.gitfn.source.Revision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Git-sourced Function with {@code gitfn.io/commit-status-secret} tells the forge how the commit it is on is doing:
 * pending while it builds and rolls out, success once it runs, failure once a condition is False, on the commit it
 * refused when it refused one; a pinned Function, which runs another commit, reports nothing, and so does a Function
 * that does not ask.
 *
 * <p>The forge's API URL here is on a host the controller may not reach, so each report is refused before any Secret
 * is read, and the refusal in {@code status.commitStatus} shows the state it would have sent. Sending is
 * CommitStatusIT's.
 */
class ForgeStepTest {

  private static final String COMMIT = "d".repeat(40);

  private final ForgeReports forge = new ForgeReports(null, ControllerSettings.defaults()
      .withGitHosts(new GitHosts(List.of("git.example.com"))), Passes.CLOCK, new SimpleMeterRegistry());
  private final ForgeStep step = new ForgeStep(forge);

  @AfterEach
  void closeForge() {
    forge.close();
  }

  @Test
  void aFunctionWithoutTheCommitStatusAnnotationReportsNothingAndShowsNoEarlierReport() {
    FunctionState state = Passes.of(TestFunction.fromGit("/orders").build());
    state.status().setCommitStatus(new CommitStatusReport());

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getCommitStatus()).isNull();
  }

  @Test
  void anInlineFunctionHasNoCommitToReportOn() {
    FunctionState state = Passes.of(TestFunction.inline()
        .metadataAnnotation(Annotations.COMMIT_STATUS_SECRET, "forge-token").build());

    step.run(state);

    assertThat(state.status().getCommitStatus()).isNull();
  }

  @Test
  void theForgeHearsSuccessOnceTheFunctionRunsItsCommit() {
    FunctionState state = onCommit();
    conditions(state, "True", "True", "True");

    step.run(state);

    assertThat(state.status().getCommitStatus()).satisfies(shown -> {
      assertThat(shown.getRevision()).isEqualTo("main@sha1:" + COMMIT);
      assertThat(shown.getState()).isEqualTo("success");
      assertThat(shown.getContext()).isEqualTo("gitfn/default/shop/function/orders");
      assertThat(shown.getResult()).as("refused before any Secret is read").isEqualTo("Invalid");
    });
  }

  @Test
  void theForgeHearsFailureOnceAConditionIsFalse() {
    FunctionState state = onCommit();
    conditions(state, "True", "False", "True");

    step.run(state);

    assertThat(state.status().getCommitStatus().getState()).isEqualTo("failure");
  }

  @Test
  void theForgeHearsPendingWhileTheFunctionBuildsOrRollsOut() {
    FunctionState state = onCommit();
    conditions(state, "True", "True", "Unknown");

    step.run(state);

    assertThat(state.status().getCommitStatus().getState()).isEqualTo("pending");
  }

  @Test
  void aCommitRefusedBeforeItWasPlannedHearsOfTheFailureNotTheCommitThatRuns() {
    FunctionState state = onCommit();
    String refused = "e".repeat(40);
    state.attempted(new Revision("main", refused));
    conditions(state, "False", "True", "True");

    step.run(state);

    assertThat(state.status().getCommitStatus()).satisfies(shown -> {
      assertThat(shown.getRevision()).isEqualTo("main@sha1:" + refused);
      assertThat(shown.getState()).isEqualTo("failure");
    });
  }

  @Test
  void aPinnedFunctionRunsAnotherCommitAndReportsNothing() {
    FunctionState state = onCommit();
    conditions(state, "True", "True", "True");
    state.status().setPinnedRevision("main@sha1:" + "e".repeat(40));

    step.run(state);

    assertThat(state.status().getCommitStatus()).isNull();
  }

  /** orders, asking for commit statuses through a forge API the controller may not reach, on commit COMMIT. */
  private static FunctionState onCommit() {
    Function fn = TestFunction.fromGit("/orders")
        .metadataAnnotation(Annotations.COMMIT_STATUS_SECRET, "forge-token")
        .metadataAnnotation(Annotations.COMMIT_STATUS_FORGE, "gitea")
        .metadataAnnotation(Annotations.COMMIT_STATUS_API_URL, "http://169.254.169.254/api")
        .build();
    fn.getMetadata().setGeneration(1L);
    FunctionState state = Passes.of(fn);
    state.status().setGitRepository(new GitRepositoryStatus(fn.getSpec().getSource().getGitRepository().getUrl(),
        "/orders", "main", COMMIT));
    return state;
  }

  private static void conditions(FunctionState state, String configured, String built, String running) {
    state.condition("ConfigurationReady", configured, "SourceUpdated", "configured");
    state.condition("BuildReady", built, "True".equals(built) ? "JobFinished" : "JobFailed", "built");
    state.condition("Running", running, "True".equals(running) ? "DeploymentReady" : "DeploymentWaiting", "runs");
  }
}
