package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.NOW;
import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.CommitStatusReport;
import io.gitfn.api.repository.CommitStatus;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.SecretRef;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.GitHosts;
import io.gitfn.reconcile.Result;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The forge hears what a pass found only when the spec asks, and the status shows how it took the newest report;
 * nothing about the forge fails a pass. Sending, which reads a Secret and calls the forge, is CommitStatusIT's.
 */
class ForgeStepTest {

  private final ForgeReports forge = new ForgeReports(null, ControllerSettings.defaults()
      .withGitHosts(new GitHosts(List.of("git.example.com"))), Clock.fixed(NOW, ZoneOffset.UTC),
      new SimpleMeterRegistry());
  private final ForgeStep step = new ForgeStep(forge);

  @AfterEach
  void closeForge() {
    forge.close();
  }

  @Test
  void aRepositoryThatAsksForNoReportsShowsNoneOfTheOnesItAskedForBefore() {
    FunctionRepositoryStatus before = new FunctionRepositoryStatus();
    before.setCommitStatus(report("Sent"));
    before.setNotification(report("Sent"));
    RepositoryState state = TestRepository.infra().status(before).pass(TestRepository.fetched(REVISION));
    state.verdict(new Verdict(REVISION, CommitState.SUCCESS, "Succeeded", "runs: 1 Function ready"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getCommitStatus()).isNull();
    assertThat(state.status().getNotification()).isNull();
  }

  @Test
  void aCommitStatusTheControllerMayNotSendShowsWhyInStatusAndFailsNothing() {
    TestRepository infra = TestRepository.infra();
    CommitStatus commitStatus = new CommitStatus();
    commitStatus.setSecretRef(new SecretRef("forge-token"));
    commitStatus.setForge("gitea");
    commitStatus.setApiURL("http://169.254.169.254/latest");
    infra.build().getSpec().setCommitStatus(commitStatus);
    RepositoryState state = infra.pass(TestRepository.fetched(REVISION));
    state.verdict(new Verdict(REVISION, CommitState.SUCCESS, "Succeeded", "runs: 1 Function ready"));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getCommitStatus()).satisfies(shown -> {
      assertThat(shown.getResult()).isEqualTo("Invalid");
      assertThat(shown.getError()).isEqualTo("the commit status API URL's host 169.254.169.254 is not one the"
          + " controller may reach (--allowed-git-host: git.example.com)");
    });
    assertThat(state.finding()).as("the forge is no finding of the pass").isEmpty();
  }

  private static CommitStatusReport report(String result) {
    CommitStatusReport report = new CommitStatusReport();
    report.setRevision(REVISION.toString());
    report.setState("success");
    report.setResult(result);
    return report;
  }
}
