package io.gitfn.reconcile;

import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.ControlPlane;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TcpRelay;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Secret that cannot be read because the API server cannot be reached is a transient failure: the pass is retried
 * and the repository never shows Stalled, which would mean "only a person can fix this".
 *
 * <p>The controller's client reaches a control plane of this test's own (etcd and kube-apiserver, so the outage
 * touches no other test) through a {@link TcpRelay}; the test's client talks to the API server directly and watches
 * every status the repository gets. Once the repository is Ready, the relay is cut (connections closed, new ones
 * refused), a commit is pushed and a signed webhook brings it in: the receiver and the Git watcher are in-process,
 * so the pass starts at once and its first call, the GET of the Git Secret, fails.
 *
 * <p>Timings, measured here: fabric8 7.5 retries a request that cannot connect 10 times, waiting 100 ms and
 * doubling up to 3.2 s (0.1 + 0.2 + 0.4 + 0.8 + 1.6 + 5 × 3.2 = 19.1 s; a GET to a closed port failed after 19.4 s,
 * a POST after 19.5 s), then throws. The pass starts about 0.25 s after the webhook is accepted (the Git fetch), its
 * Secret GET gives up about 19.5 s after that, and the pass then records its Event and patches its status, each
 * retried for another 19.1 s while the relay is cut. So a relay restored between about 20 s and 58 s after the
 * webhook lets that pass's own Event and status write land, carrying whatever it concluded from the failed read;
 * restored before, the GET itself succeeds; after, the write is lost and the next pass reads the Secret. The relay
 * stays cut for {@link #CUT} after the webhook, near the middle. On today's code the status with Stalled=True
 * SecretUnreadable landed 0.2 to 0.3 s after a restore at 35 s (three runs), and 1.8 s after one at 27 s: the Event's
 * next try, then the patch.
 */
@ExtendWith(GitServers.class)
class SecretReadOutageIT {

  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration CUT = Duration.ofSeconds(35);
  private static final String NAMESPACE = "secret-outage";
  private static final String HOOK_TOKEN = "s3cret";

  @Test
  void aSecretReadThatFailsWhileTheApiServerIsUnreachableIsRetriedAndNeverStalls(GitHttpServer http,
      BareRepository repository, GitClient git) throws Exception {
    TestBedBinaries binaries = TestBedBinaries.locate();
    Path target = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed"));
    try (ControlPlane plane = ControlPlane.start(binaries, Files.createTempDirectory(target, "secret-outage-"), START,
            new ControlPlane.Options("127.0.0.1", "10.96.0.0/16", List.of("--endpoint-reconciler-type=none")));
        KubernetesClient client = plane.newClient();
        TcpRelay relay = TcpRelay.start("127.0.0.1", URI.create(plane.url()).getPort());
        KubernetesClient controllerClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(plane.config())
            .withMasterUrl("https://127.0.0.1:" + relay.port()).build()).build()) {
      KubeTestBed.installCrds(client);
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      gitSecret(client, NAMESPACE, http);
      client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("hook")
          .endMetadata().addToStringData("token", HOOK_TOKEN).build()).create();
      WorkingCopy copy = git.clone(http.url(repository.name()));
      String first = copy.write("functions/README.md", "Nothing to run yet.\n").commit("first");
      copy.push();

      try (Controller controller = Controller.start(controllerClient,
          SourceSettings.defaults(Files.createTempDirectory("gitfn-secret-outage-mirrors")), WebhookSettings.defaults(),
          ControllerSettings.defaults(), BuildSettings.defaults(),
          WorkloadSettings.defaults(), "127.0.0.1", 0)) {
        // An empty folder is allowed, so that with an API server alone the repository reaches Ready=True.
        create(client, NAMESPACE, "infra", http.url(repository.name()),
            Map.of("allowEmpty", true, "webhook", Map.of("secretRef", Map.of("name", "hook"))));
        await().atMost(START).untilAsserted(() -> assertThat(readyAt(client)).as("Ready and its revision")
            .isEqualTo("True main@sha1:" + first));
        assertThat(relay.accepted()).as("connections of the controller's client through the relay").isPositive();

        try (Statuses statuses = Statuses.watch(client)) {
          String second = copy.write("functions/README.md", "Still nothing to run.\n").commit("second");
          copy.push();
          relay.cut();
          statuses.mark("relay cut");
          HttpResponse<String> response = webhook(controller, http.url(repository.name()), second);
          assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
          statuses.mark("webhook accepted");
          await("the relay stays cut").during(CUT).atMost(CUT.plusSeconds(5)).until(() -> !relay.listening());
          relay.restore();
          statuses.mark("relay restored");

          await().atMost(Duration.ofMinutes(2)).until(() -> statuses.anyStalled()
              || ("True main@sha1:" + second).equals(readyAt(client)));
          assertThat(statuses.stalled())
              .as("statuses with Stalled=True that the API server recorded from the cut on; all of them: %s",
                  statuses.all())
              .isEmpty();
          assertThat(readyAt(client)).as("Ready and its revision; statuses from the cut on: %s", statuses.all())
              .isEqualTo("True main@sha1:" + second);
        }
      }
    }
  }

  /** The Ready condition's status and the applied revision, such as {@code True main@sha1:...}. */
  private static String readyAt(KubernetesClient client) {
    FunctionRepository infra = client.resources(FunctionRepository.class).inNamespace(NAMESPACE).withName("infra")
        .get();
    if (infra == null || infra.getStatus() == null) {
      return "no status";
    }
    return Conditions.find(infra.getStatus().getConditions(), "Ready").map(Condition::getStatus).orElse("no Ready")
        + " " + infra.getStatus().getLastAppliedRevision();
  }

  private static HttpResponse<String> webhook(Controller controller, String url, String sha) throws Exception {
    byte[] body = ("{\"repository\":\"" + url + "\",\"ref\":\"refs/heads/main\",\"after\":\"" + sha + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HOOK_TOKEN.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(controller.webhookUri().resolve("generic"))
        .header("Content-Type", "application/json").header("X-Delivery-Id", "secret-outage")
        .header("X-Signature", "sha256=" + HexFormat.of().formatHex(mac.doFinal(body)))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Every status of the repository that the test's own watch sees, with the seconds since the watch began, and the
   * test's own steps in between.
   */
  private static final class Statuses implements AutoCloseable {
    private final long start = System.nanoTime();
    private final List<String> all = new CopyOnWriteArrayList<>();
    private final List<String> stalled = new CopyOnWriteArrayList<>();
    private Watch watch;

    static Statuses watch(KubernetesClient client) {
      Statuses statuses = new Statuses();
      statuses.watch = client.resources(FunctionRepository.class).inNamespace(NAMESPACE).withName("infra")
          .watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, FunctionRepository infra) {
              statuses.record(infra);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
          });
      return statuses;
    }

    private String at() {
      return String.format("%.1fs", (System.nanoTime() - start) / 1e9);
    }

    void mark(String step) {
      all.add(at() + " (" + step + ")");
    }

    private void record(FunctionRepository infra) {
      if (infra.getStatus() == null || infra.getStatus().getConditions() == null) {
        return;
      }
      String text = at() + " " + infra.getStatus().getConditions().stream()
          .map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason() + ": " + c.getMessage()).toList()
          + " applied " + infra.getStatus().getLastAppliedRevision();
      all.add(text);
      if (Conditions.isTrue(infra.getStatus().getConditions(), "Stalled")) {
        stalled.add(text);
      }
    }

    boolean anyStalled() {
      return !stalled.isEmpty();
    }

    List<String> stalled() {
      return List.copyOf(stalled);
    }

    List<String> all() {
      return List.copyOf(all);
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
