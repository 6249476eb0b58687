package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.MutableClock;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.notify.CommitState;
import io.gitfn.source.Revision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a pass shows when it cannot report to the forge: never an exception, a reason that names what to fix, and
 * no new status write for the same refusal at the next pass. A tenant's apiURL may point only where the controller
 * may fetch from.
 */
class ForgeReportsTest {

  private static final Revision REVISION = new Revision("main", "a".repeat(40));
  private static final ForgeReports.Verdict SUCCESS = new ForgeReports.Verdict(REVISION, CommitState.SUCCESS,
      "Succeeded", "runs");
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T04:00:00Z"));

  @Test
  void anApiUrlOnAHostTheControllerMayNotReachIsRefusedBeforeAnySecretIsRead() {
    ControllerSettings settings = ControllerSettings.defaults().withGitHosts(new GitHosts(List.of("git.example.com")));
    try (ForgeReports reports = new ForgeReports(null, settings, clock, new SimpleMeterRegistry())) {
      ForgeReports.Prepared report = reports.commitStatus(target("https://git.example.com/a/b.git", "gitea",
          "http://169.254.169.254/latest"), Optional.of(SUCCESS), null);

      assertThat(report.send()).as("nothing to send").isEmpty();
      assertThat(report.shown()).hasValueSatisfying(r -> {
        assertThat(r.getResult()).isEqualTo("Invalid");
        assertThat(r.getError()).isEqualTo("the commit status API URL's host 169.254.169.254 is not one the"
            + " controller may reach (--allowed-git-host: git.example.com)");
        assertThat(r.getContext()).isEqualTo("gitfn/default/shop/infra");
      });
    }
  }

  @Test
  void aHostWhoseForgeIsUnknownSaysWhichFieldToSetAndTheSameRefusalKeepsItsTime() {
    try (ForgeReports reports = new ForgeReports(null, ControllerSettings.defaults(), clock,
        new SimpleMeterRegistry())) {
      CommitStatusReport first = reports.commitStatus(target("https://git.example.com/a/b.git", null, null),
          Optional.of(SUCCESS), null).shown().orElseThrow();
      assertThat(first.getError()).contains("cannot tell which forge hosts git.example.com")
          .contains("spec.commitStatus.forge");

      clock.advance(Duration.ofMinutes(1));
      CommitStatusReport again = reports.commitStatus(target("https://git.example.com/a/b.git", null, null),
          Optional.of(SUCCESS), first).shown().orElseThrow();
      assertThat(again).isSameAs(first);
    }
  }

  @Test
  void aStatusTheForgeAcceptedIsNotSentAgain() {
    CommitStatusReport sent = new CommitStatusReport();
    sent.setRevision(REVISION.toString());
    sent.setState("success");
    sent.setContext("gitfn/default/shop/infra");
    sent.setResult("Sent");
    try (ForgeReports reports = new ForgeReports(null, ControllerSettings.defaults(), clock,
        new SimpleMeterRegistry())) {
      // No client, no Secret, no forge: anything but "nothing to do" would fail here.
      ForgeReports.Prepared report = reports.commitStatus(target("https://git.example.com/a/b.git", null, null),
          Optional.of(SUCCESS), sent);
      assertThat(report.shown()).containsSame(sent);
      assertThat(report.send()).isEmpty();
    }
  }

  @Test
  void aNotificationUrlOnAHostTheControllerMayNotReachIsRefused() {
    ControllerSettings settings = ControllerSettings.defaults().withGitHosts(new GitHosts(List.of("git.example.com")));
    try (ForgeReports reports = new ForgeReports(null, settings, clock, new SimpleMeterRegistry())) {
      CommitStatusReport report = reports.notification(new ForgeReports.Endpoint("FunctionRepository", "shop", "infra",
          "http://kubernetes.default.svc/api", "hook", "spec.notification.secretRef"), Optional.of(SUCCESS), null)
          .shown().orElseThrow();

      assertThat(report.getResult()).isEqualTo("Invalid");
      assertThat(report.getError()).isEqualTo("the notification URL's host kubernetes.default.svc is not one the"
          + " controller may reach (--allowed-git-host: git.example.com)");
    }
  }

  @Test
  void aFunctionsContextSaysItIsAFunction() {
    try (ForgeReports reports = new ForgeReports(null, ControllerSettings.defaults().withClusterName("eu-1"), clock,
        new SimpleMeterRegistry())) {
      assertThat(reports.context(new ForgeReports.Target("Function", "shop", "hello", "u", "s", "f", null, null)))
          .isEqualTo("gitfn/eu-1/shop/function/hello");
    }
  }

  private static ForgeReports.Target target(String url, String forge, String apiUrl) {
    return new ForgeReports.Target("FunctionRepository", "shop", "infra", url, "forge", "spec.commitStatus.secretRef",
        forge, apiUrl);
  }
}
