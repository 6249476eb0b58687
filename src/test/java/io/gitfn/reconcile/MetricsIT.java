package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.controller.Controller;
import io.gitfn.controller.OperationSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A controller's {@code /metrics}, {@code /healthz} and {@code /readyz} over HTTP after a FunctionRepository sync,
 * the Function it makes and builds (kwok completes the build Job), and a webhook delivery.
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class MetricsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SHARD = "gitfn.test/metrics-it";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "metrics", (client, sources) -> Controller.start(client, sources,
        WebhookSettings.defaults(),
        // The cluster is shared with other test classes, whose Functions may linger in terminating namespaces:
        // a shard of its own keeps this controller, and so the counts asserted below, to this test's objects.
        ControllerSettings.defaults().withShard(ShardSelector.parse("--shard-selector", SHARD + "=yes"), "metrics-it"),
        bed.layeredBuilds().settings(), WorkloadSettings.defaults(), "127.0.0.1", 0,
        OperationSettings.defaults(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), () -> { }));
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void probesAnswerAndEveryFamilyIsScrapedWithItsLabels(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    assertThat(get("healthz").statusCode()).isEqualTo(200);
    assertThat(get("readyz").statusCode()).isEqualTo(200);

    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml",
        TestFunction.declared("hello").code("module.exports = { main: () => 'hi' };").toYaml()).commit("one function");
    copy.push();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("git")
        .endMetadata().addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
        + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + ", labels: {" + SHARD
        + ": 'yes'}}, spec: {url: '"
        + http.url(repository.name()) + "', ref: {branch: main}, path: functions, interval: 1h,"
        + " secretRef: {name: git}}}", FunctionRepository.class)).create();
    await().atMost(WAIT).until(() -> built(client, ns, "hello"));

    HttpResponse<String> ping = HTTP.send(HttpRequest.newBuilder(running.controller().webhookUri().resolve("github"))
        .header("X-GitHub-Event", "ping").header("X-GitHub-Delivery", "metrics-it-1")
        .POST(HttpRequest.BodyPublishers.ofString("{\"zen\":\"Keep it simple.\",\"hook_id\":1}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(ping.statusCode()).as(ping.body()).isEqualTo(200);

    await().atMost(WAIT).untilAsserted(() -> {
      HttpResponse<String> scrape = get("metrics");
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
          .startsWith("text/plain"));
      assertThat(scrape.body())
          .contains("# TYPE gitfn_reconcile_seconds summary")
          .contains("gitfn_reconcile_seconds_count{kind=\"FunctionRepository\",result=\"success\"}")
          .contains("gitfn_reconcile_seconds_count{kind=\"Function\",result=\"success\"}")
          .containsPattern("gitfn_git_checks_total\\{result=\"changed\"} [1-9]")
          .contains("gitfn_git_checks_total{result=\"unchanged\"}")
          .contains("gitfn_git_checks_total{result=\"error\"}")
          .containsPattern("gitfn_git_fetches_total\\{result=\"success\"} [1-9]")
          .containsPattern("gitfn_webhook_deliveries_total\\{forge=\"github\",result=\"ignored\"} 1")
          .contains("gitfn_build_queue{state=\"waiting\"}")
          .contains("gitfn_build_queue{state=\"running\"}")
          .containsPattern("gitfn_builds_total\\{result=\"succeeded\"} 1")
          .contains("gitfn_builds_total{result=\"failed\"}")
          .contains("jvm_memory_used_bytes{area=\"heap\"")
          .contains("jvm_threads_live_threads")
          .contains("process_cpu_usage");
    });
  }

  private static boolean built(KubernetesClient client, TestNamespace ns, String name) {
    io.gitfn.api.function.Function fn = client.resources(io.gitfn.api.function.Function.class)
        .inNamespace(ns.name()).withName(name).get();
    return fn != null && fn.getStatus() != null && fn.getStatus().getConditions() != null
        && fn.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("BuildReady") && c.getStatus().equals("True"));
  }

  private static HttpResponse<String> get(String path) throws Exception {
    URI uri = running.controller().operationsUri().resolve(path);
    return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }
}
