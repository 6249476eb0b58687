package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.functionNames;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.repository;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static io.gitfn.reconcile.Repositories.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.FlakyGitProxy.Mode;
import io.gitfn.testbed.git.FlakyGitProxy;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults in one tenant's Git repository, with the controller running against a real API server and real Git
 * servers: the repository at fault fails alone and says why, what it applied last keeps serving, and another
 * tenant's repository goes on being checked and applied on time.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class RepositoryFaultsIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  // Short, so that a slow server costs each check seconds rather than the minute of the default.
  private static final Duration GIT_TIMEOUT = Duration.ofSeconds(4);
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "fault", (client, sources) -> Controller.start(client,
        sources.withTimeout(GIT_TIMEOUT), WebhookSettings.defaults(), ControllerSettings.defaults(), BuildSettings.defaults(),
          WorkloadSettings.defaults(), "127.0.0.1", 0));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void aRevisionOfAHundredThousandFilesFailsItsRepositoryAloneAndSaysWhy(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository huge, BareRepository healthy, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(healthy.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push();
    String hugeHead = hundredThousandFiles(huge);
    gitSecret(client, ns.name(), http);

    Instant created = Instant.now();
    create(client, ns.name(), "huge", http.url(huge.name()), Map.of());
    create(client, ns.name(), "healthy", http.url(healthy.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "huge", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getMessage()).contains("main@sha1:" + hugeHead).contains("10000");
        }));
    Duration toFailure = Duration.between(created, Instant.now());
    // Applied, as only an API server runs here: nothing makes the Functions' Pods run.
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "healthy", "Ready"))
        .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("RollingOut")));
    assertThat(functionNames(client, ns.name())).containsExactly("hello");

    // The healthy repository's next commit applies while the huge one stays as it is.
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("v2");
    copy.push();
    requestReconcile(client, ns.name(), "healthy");
    await().atMost(WAIT).untilAsserted(() -> assertThat(version(client, ns.name(), "hello")).isEqualTo("v2"));
    assertThat(toFailure).as("from creation to the huge repository's failure").isLessThan(WAIT);
  }

  @Test
  void aGitServerThatGoesDownThenSlowThenBackCostsItsOwnRepositoryOnly(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository flaky, BareRepository healthy, GitClient git) throws Exception {
    WorkingCopy flakyCopy = git.clone(http.url(flaky.name()));
    String applied = flakyCopy.write("functions/orders.yaml", function("orders", NODEJS22, "v1").toYaml())
        .commit("orders");
    flakyCopy.push();
    WorkingCopy healthyCopy = git.clone(http.url(healthy.name()));
    healthyCopy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    healthyCopy.push();
    gitSecret(client, ns.name(), http);
    try (FlakyGitProxy proxy = FlakyGitProxy.in(http.url(flaky.name()), Duration.ofSeconds(2))) {
      create(client, ns.name(), "flaky", proxy.url(http.url(flaky.name())), Map.of());
      create(client, ns.name(), "healthy", http.url(healthy.name()), Map.of());
      await().atMost(WAIT).untilAsserted(() -> assertThat(functionNames(client, ns.name()))
          .containsExactlyInAnyOrder("orders", "hello"));

      // Down: every connection is closed at once.
      proxy.mode(Mode.DOWN);
      requestReconcile(client, ns.name(), "flaky");
      await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "flaky", "Ready"))
          .hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("SourceFailed");
          }));
      String downMessage = condition(client, ns.name(), "flaky", "Ready").orElseThrow().getMessage();
      int downAfterFailure = proxy.connections(Mode.DOWN);
      TimeUnit.SECONDS.sleep(10); // how often the controller tries in 10 s of a server that is down
      int triedWhileDown = proxy.connections(Mode.DOWN) - downAfterFailure;

      // Slow: the server answers a byte every 2 s; each check ends at the Git timeout.
      proxy.mode(Mode.SLOW);
      requestReconcile(client, ns.name(), "flaky");
      // Meanwhile another tenant's commit is applied on time.
      healthyCopy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("v2");
      healthyCopy.push();
      Instant pushed = Instant.now();
      requestReconcile(client, ns.name(), "healthy");
      await().atMost(WAIT).untilAsserted(() -> assertThat(version(client, ns.name(), "hello")).isEqualTo("v2"));
      Duration healthyApplied = Duration.between(pushed, Instant.now());
      await().atMost(WAIT).untilAsserted(() -> assertThat(proxy.connections(Mode.SLOW)).isPositive());
      await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns.name(), "flaky", "Ready"))
          .hasValueSatisfying(c -> assertThat(c.getMessage()).isNotEqualTo(downMessage)));
      String slowMessage = condition(client, ns.name(), "flaky", "Ready").orElseThrow().getMessage();

      // What the flaky repository applied last keeps serving throughout.
      assertThat(functionNames(client, ns.name())).containsExactlyInAnyOrder("orders", "hello");
      assertThat(repository(client, ns.name(), "flaky").getStatus().getLastAppliedRevision())
          .isEqualTo("main@sha1:" + applied);

      // Back: the repository recovers by itself, at its next try.
      proxy.mode(Mode.UP);
      String fixed = flakyCopy.write("functions/orders.yaml", function("orders", NODEJS22, "v2").toYaml()).commit("v2");
      flakyCopy.push();
      await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
        assertThat(version(client, ns.name(), "orders")).isEqualTo("v2");
        assertThat(repository(client, ns.name(), "flaky").getStatus().getLastAppliedRevision())
            .isEqualTo("main@sha1:" + fixed);
        assertThat(condition(client, ns.name(), "flaky", "Ready"))
            .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("RollingOut"));
      });

      assertThat(downMessage).as("the cause, while the server is down")
          .startsWith("Git check failed; keeping main@sha1:" + applied + ": ls-remote ")
          .contains("the server's answer could not be used");
      // The check that runs into the timeout says so; on a loaded machine the next one may start while the slow
      // call is still being cut off, and says that instead. Both name the 4 s deadline.
      assertThat(slowMessage).as("the cause, while the server is slow")
          .startsWith("Git check failed; keeping main@sha1:" + applied + ": ")
          .satisfiesAnyOf(m -> assertThat(m).contains("ls-remote ").contains("did not finish within 4 s (--git-timeout)"),
              m -> assertThat(m).contains("is still running, long past its deadline of 4 s; the server is too slow"));
      // Backing off 1, 2, 4 s is three checks in 10 s, each of which may connect twice (JGit's HTTP client tries a
      // request again on a connection closed under it); a retry every second would be ten or twenty.
      assertThat(triedWhileDown).as("connections in 10 s of a server that is down: the checks back off")
          .isBetween(1, 8);
      assertThat(healthyApplied).as("another repository's commit, applied while the flaky server is slow")
          .isLessThan(Duration.ofSeconds(15));
    }
  }

  /**
   * Writes a commit of 100,000 files under {@code functions/} straight into the bare repository, with
   * {@code git fast-import}: one blob, named 100,000 times.
   */
  private static String hundredThousandFiles(BareRepository repository) throws Exception {
    Process importer = new ProcessBuilder("git", "--git-dir=" + repository.directory(), "fast-import", "--quiet")
        .redirectErrorStream(true).start();
    try (OutputStream out = new BufferedOutputStream(importer.getOutputStream())) {
      byte[] blob = "# not a Function\n".getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder()
          .append("blob\nmark :1\ndata ").append(blob.length).append('\n');
      out.write(head.toString().getBytes(StandardCharsets.UTF_8));
      out.write(blob);
      out.write(("\ncommit refs/heads/main\ncommitter Test <test@example.com> 1700000000 +0000\ndata 5\nhuge\n")
          .getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 100_000; i++) {
        out.write(String.format("M 100644 :1 functions/f%06d.yaml%n", i).getBytes(StandardCharsets.UTF_8));
      }
      out.write("\n".getBytes(StandardCharsets.UTF_8));
    }
    String output = new String(importer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(importer.waitFor()).as("git fast-import: " + output).isZero();
    Process revParse = new ProcessBuilder("git", "--git-dir=" + repository.directory(), "rev-parse", "main").start();
    String head = new String(revParse.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(revParse.waitFor()).isZero();
    return head;
  }
}
