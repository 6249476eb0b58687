package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two controllers with {@code --shard-selector gitfn.io/shard=a} and {@code gitfn.io/shard=b}: each reconciles the
 * objects of its shard only (the Events' source host names the instance that wrote them), a repository's Functions
 * land on the repository's shard, and an object without the label is left to an unsharded instance.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class ShardingIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SHARD = "gitfn.io/shard";
  private static KubernetesClient clientA;
  private static KubernetesClient clientB;
  private static Controller shardA;
  private static Controller shardB;

  @BeforeAll
  static void startControllers(KubeTestBed bed) throws Exception {
    bed.installCrds();
    clientA = bed.newClient();
    clientB = bed.newClient();
    shardA = start(clientA, "a");
    shardB = start(clientB, "b");
  }

  private static Controller start(KubernetesClient client, String shard) throws Exception {
    ControllerSettings settings = ControllerSettings.defaults()
        .withShard(ShardSelector.parse("--shard-selector", SHARD + "=" + shard), "shard-" + shard);
    return Controller.start(client, SourceSettings.defaults(Files.createTempDirectory("gitfn-shard-" + shard)),
        WebhookSettings.defaults(), settings, BuildSettings.defaults(), WorkloadSettings.defaults(), "127.0.0.1", 0,
        OperationSettings.defaults(), new SimpleMeterRegistry(), () -> { });
  }

  @AfterAll
  static void stopControllers() throws Exception {
    try (var a = clientA; var b = clientB; var c1 = shardA; var c2 = shardB) {
      // closes all four, controllers first
    }
  }

  @Test
  void eachInstanceReconcilesItsShardAndNothingElse(KubernetesClient client, TestNamespace ns) {
    client.resource(labelled(LeaderElectionIT.function(ns, "in-a"), "a")).create();
    client.resource(labelled(LeaderElectionIT.function(ns, "in-b"), "b")).create();
    client.resource(LeaderElectionIT.function(ns, "unsharded")).create();

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(LeaderElectionIT.reconciled(client, ns, "in-a")).isTrue();
      assertThat(LeaderElectionIT.reconciled(client, ns, "in-b")).isTrue();
    });
    assertThat(writers(client, ns, "in-a")).containsExactly("shard-a");
    assertThat(writers(client, ns, "in-b")).containsExactly("shard-b");
    // Neither instance touches it: no finalizer, no status, no Event, however long one waits.
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      Function unsharded = client.resources(Function.class).inNamespace(ns.name()).withName("unsharded").get();
      assertThat(unsharded.getStatus()).isNull();
      assertThat(unsharded.getMetadata().getFinalizers()).isEmpty();
      assertThat(writers(client, ns, "unsharded")).isEmpty();
    });
  }

  @Test
  void aRepositorysFunctionsCarryItsShardAndStayOnItsInstance(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    // Git asks for shard b; the repository is on shard a, and so are its Functions.
    copy.write("functions/hello.yaml", TestFunction.declared("hello").metadataLabel(SHARD, "b")
        .code("module.exports = { main: () => 'hi' };").toYaml()).commit("one function");
    copy.push();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("git")
        .endMetadata().addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
        + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + ", labels: {" + SHARD + ": a}},"
        + " spec: {url: '" + http.url(repository.name()) + "', ref: {branch: main}, path: functions,"
        + " interval: 1h, secretRef: {name: git}}}", FunctionRepository.class)).create();

    await().atMost(WAIT).untilAsserted(() -> {
      Function hello = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
      assertThat(hello).isNotNull();
      assertThat(hello.getMetadata().getLabels()).containsEntry(SHARD, "a");
      assertThat(LeaderElectionIT.reconciled(client, ns, "hello")).isTrue();
    });
    assertThat(writers(client, ns, "infra")).containsExactly("shard-a");
    assertThat(writers(client, ns, "hello")).containsExactly("shard-a");
  }

  private static Function labelled(Function fn, String shard) {
    fn.getMetadata().setLabels(Map.of(SHARD, shard));
    return fn;
  }

  /** The instances that recorded Events about {@code name}. */
  private static Set<String> writers(KubernetesClient client, TestNamespace ns, String name) {
    List<Event> events = client.v1().events().inNamespace(ns.name()).list().getItems();
    return events.stream().filter(e -> name.equals(e.getInvolvedObject().getName()))
        .map(e -> e.getSource().getHost()).collect(Collectors.toSet());
  }
}
