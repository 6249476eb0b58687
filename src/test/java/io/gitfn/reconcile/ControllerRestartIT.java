package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.controller.Controller;
import io.gitfn.controller.OperationSettings;
import io.gitfn.controller.ReconcileMetrics;
import io.gitfn.source.SourceSettings;
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
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A controller restarted on its mirrors reads everything again and writes nothing: no fetch, no apply, no status,
 * no Event, for a repository and Functions that already run their revision. At ten thousand Functions the scale
 * benchmark measures the same (docs/benchmarks.md#scale).
 */
@WithKubeCluster
@ExtendWith(GitServers.class)
class ControllerRestartIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  // Its own shard, so that neither instance sees the Functions other test classes left in the shared cluster.
  private static final String SHARD = "restart-it";

  @Test
  void aRestartedControllerChecksEverythingAndWritesNothing(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", function("bye", NODEJS22, "v1").toYaml()).commit("two functions");
    copy.push();
    gitSecret(client, ns.name(), http);
    bed.installCrds();
    Path mirrors = Files.createTempDirectory("gitfn-restart-mirrors");
    try (Instance first = Instance.start(bed, mirrors, ns)) {
      client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
          + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + ", labels: {gitfn.io/shard: "
          + SHARD + "}}, spec: {url: '" + http.url(repository.name()) + "', ref: {branch: main}, path: functions,"
          + " interval: 1h, secretRef: {name: git}}}", FunctionRepository.class)).create();
      await().atMost(WAIT).until(() -> ready(client, ns));
      // At rest: the Functions go on as soon as the install Pod has packed, and leave the install Job (the last
      // deletes it) once the Job controller marks it complete, a moment later.
      await().atMost(WAIT).until(() -> client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().isEmpty());
    }

    try (Instance second = Instance.start(bed, mirrors, ns)) {
      // Every Function and the repository had a pass, and the repository one after its first Git check.
      await().atMost(WAIT).until(() -> second.passes("Function") >= 2 && second.passes("FunctionRepository") >= 2);
      Thread.sleep(3_000); // a window for any write those passes would still make

      assertThat(second.writes).as("writes of the restarted controller in " + ns.name()).isEmpty();
      assertThat(second.meters.get("gitfn.git.fetches").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
      assertThat(ready(client, ns)).isTrue();
    }
  }

  private static boolean ready(KubernetesClient client, TestNamespace ns) {
    FunctionRepository infra = client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra")
        .get();
    return infra != null && infra.getStatus() != null
        && Conditions.isTrue(infra.getStatus().getConditions(), "Ready");
  }

  /** A controller of the shard on a client that records its writes into the test's namespace. */
  private record Instance(KubernetesClient client, Controller controller, SimpleMeterRegistry meters,
      List<String> writes) implements AutoCloseable {

    static Instance start(KubeTestBed bed, Path mirrors, TestNamespace ns) throws Exception {
      List<String> writes = new CopyOnWriteArrayList<>();
      KubernetesClient client = counting(bed.config(), "/namespaces/" + ns.name() + "/", writes);
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      ControllerSettings settings = ControllerSettings.defaults()
          .withShard(ShardSelector.parse("--shard-selector", "gitfn.io/shard=" + SHARD), "restart-it");
      Controller controller = Controller.start(client, SourceSettings.defaults(mirrors), WebhookSettings.defaults(),
          settings, bed.layeredBuilds().settings(), WorkloadSettings.defaults(), "127.0.0.1", 0,
          OperationSettings.defaults(), meters, () -> { });
      return new Instance(client, controller, meters, writes);
    }

    double passes(String kind) {
      return meters.find(ReconcileMetrics.NAME).tag("kind", kind).timers().stream().mapToLong(t -> t.count()).sum();
    }

    @Override
    public void close() throws Exception {
      try (client) {
        controller.close();
      }
    }
  }

  private static KubernetesClient counting(Config config, String namespacePath, List<String> writes) {
    Interceptor recorder = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (!"GET".equals(request.method()) && request.uri().getPath().contains(namespacePath)) {
          writes.add(request.method() + " " + request.uri().getPath());
        }
      }
    };
    return new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gitfn-test-writes", recorder)).build();
  }
}
