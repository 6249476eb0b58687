package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.controller.OperationSettings;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two controllers with {@code --shard-selector gitfn.io/shard=a} and {@code gitfn.io/shard=b}: each reconciles the
 * objects of its shard only (the Events' source host names the instance that wrote them), a repository's Functions
 * land on the repository's shard, and an object without the label is left to an unsharded instance: neither
 * instance's Function informer lists or watches anything but its own shard, so none ever sees it. The informers of
 * the Functions' children select the shard too.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class ShardingIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SHARD = "gitfn.io/shard";
  private static final Requests requestsA = new Requests();
  private static final Requests requestsB = new Requests();
  private static KubernetesClient clientA;
  private static KubernetesClient clientB;
  private static Controller shardA;
  private static Controller shardB;

  @BeforeAll
  static void startControllers(KubeTestBed bed) throws Exception {
    bed.installCrds();
    clientA = requestsA.client(bed.config());
    clientB = requestsB.client(bed.config());
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
    client.resource(LeaderElectionIT.function(ns, "unsharded")).create();
    client.resource(labelled(LeaderElectionIT.function(ns, "in-a"), "a")).create();
    client.resource(labelled(LeaderElectionIT.function(ns, "in-b"), "b")).create();

    // Each instance reconciled a Function created after "unsharded": its informer has listed and watched past it.
    // The Events that name the writer are recorded after the status write lands, so they are awaited too.
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(LeaderElectionIT.reconciled(client, ns, "in-a")).isTrue();
      assertThat(LeaderElectionIT.reconciled(client, ns, "in-b")).isTrue();
      assertThat(writers(client, ns, "in-a")).containsExactly("shard-a");
      assertThat(writers(client, ns, "in-b")).containsExactly("shard-b");
    });
    // It did so with its shard's selector only, which "unsharded" does not pass: no wait can make either see it.
    assertThat(requestsA.functionInformer()).as("instance a's lists and watches of Functions").isNotEmpty()
        .allSatisfy(query -> assertThat(query).contains("labelSelector=" + SHARD + "=a"));
    assertThat(requestsB.functionInformer()).as("instance b's lists and watches of Functions").isNotEmpty()
        .allSatisfy(query -> assertThat(query).contains("labelSelector=" + SHARD + "=b"));
    // The children's informers too: another shard's Deployments, Services, HPAs and Jobs never fill its caches.
    assertThat(requestsA.childInformers()).as("instance a's lists and watches of children").hasSizeGreaterThan(3)
        .allSatisfy(query -> assertThat(query).contains(",gitfn.io/shard=a"));
    assertThat(requestsB.childInformers()).as("instance b's lists and watches of children").hasSizeGreaterThan(3)
        .allSatisfy(query -> assertThat(query).contains(",gitfn.io/shard=b"));
    // And neither touched it: no request about it, no finalizer, no status, no Event.
    assertThat(requestsA.sent).noneMatch(request -> request.contains("/functions/unsharded"));
    assertThat(requestsB.sent).noneMatch(request -> request.contains("/functions/unsharded"));
    Function unsharded = client.resources(Function.class).inNamespace(ns.name()).withName("unsharded").get();
    assertThat(unsharded.getStatus()).isNull();
    assertThat(unsharded.getMetadata().getFinalizers()).isEmpty();
    assertThat(writers(client, ns, "unsharded")).isEmpty();
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
    assertWrittenBy(client, ns, "infra", "shard-a");
    assertWrittenBy(client, ns, "hello", "shard-a");
  }

  /** Every Event about {@code name} came from {@code instance}; a failure names each Event, to tell who wrote it. */
  private static void assertWrittenBy(KubernetesClient client, TestNamespace ns, String name, String instance) {
    List<Event> events = client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e.getSource().getHost())
        .as("the host of %s Event %s about %s/%s (%s), component %s, at %s", e.getType(), e.getReason(),
            e.getInvolvedObject().getKind(), name, e.getMessage(), e.getSource().getComponent(),
            e.getFirstTimestamp())
        .isEqualTo(instance));
  }

  private static Function labelled(Function fn, String shard) {
    fn.getMetadata().setLabels(Map.of(SHARD, shard));
    return fn;
  }

  /** What a controller's client asked the API server: each request's method, path and query. */
  private static final class Requests implements Interceptor {

    private static final String FUNCTIONS = "/apis/serverless.kyma-project.io/v1alpha2/functions";
    private static final List<String> CHILDREN = List.of("/apis/apps/v1/deployments", "/api/v1/services",
        "/apis/autoscaling/v2/horizontalpodautoscalers", "/apis/batch/v1/jobs");

    final List<String> sent = new CopyOnWriteArrayList<>();

    KubernetesClient client(Config config) {
      return new KubernetesClientBuilder().withConfig(config)
          .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gitfn-test-requests", this)).build();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      sent.add(request.method() + " " + request.uri().getPath() + "?" + request.uri().getQuery());
    }

    /** The queries of the lists and watches of Deployments, Services, HPAs and Jobs in every namespace. */
    List<String> childInformers() {
      return sent.stream().filter(r -> CHILDREN.stream().anyMatch(kind -> r.startsWith("GET " + kind + "?")))
          .map(r -> r.substring(r.indexOf('?'))).toList();
    }

    /** The queries of the lists and watches of Functions in every namespace: what the Function informer asked. */
    List<String> functionInformer() {
      return sent.stream().filter(r -> r.startsWith("GET " + FUNCTIONS + "?")).map(r -> r.substring(r.indexOf('?')))
          .toList();
    }
  }

  /** The instances that recorded Events about {@code name}. */
  private static Set<String> writers(KubernetesClient client, TestNamespace ns, String name) {
    List<Event> events = client.v1().events().inNamespace(ns.name()).list().getItems();
    return events.stream().filter(e -> name.equals(e.getInvolvedObject().getName()))
        .map(e -> e.getSource().getHost()).collect(Collectors.toSet());
  }
}
