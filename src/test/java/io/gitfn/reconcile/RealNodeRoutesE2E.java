package io.gitfn.reconcile;

import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.RouteLoad;
import io.gitfn.testbed.realnode.Traefik;
import io.gitfn.testbed.realnode.WithRealNode;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.TestBedBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A whole Function app from Git on a real node (issue 31): a Function, the ConfigMap it reads and the HTTPRoute that
 * exposes it, from one folder of an infra repository, reached through a real ingress controller (Traefik, built from
 * its Go module, implementing the Gateway API). Under load through the route: a ConfigMap change rolls the Function
 * with no build Job and no failed request; a route that moves its path, and the revert that moves it back, move the
 * traffic with no failed request; deleting the route from Git makes its path answer 404.
 */
@WithRealNode
@ExtendWith(GitServers.class)
class RealNodeRoutesE2E {

  private static final String HOST = "shop.test";
  private static NodeGitfn gitfn;

  @BeforeAll
  static void startController(RealNode node) throws Exception {
    gitfn = NodeGitfn.start(node);
  }

  @AfterAll
  static void stopController() throws Exception {
    gitfn.close();
  }

  @Test
  void theAppsRouteAndConfigMapComeFromGitAndChangeUnderLoadWithNoFailedRequest(KubernetesClient client,
      TestNamespace ns, Traefik traefik, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    gitfn.prepare(client, ns.name());
    traefik.createGateway(client, ns.name());
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello/function.yaml", TestFunction.declared("hello")
            .code("module.exports = { main: () => process.env.GREETING + ' from hello' };\n")
            .envFromConfigMap("GREETING", "hello-settings", "greeting").toYaml())
        .write("functions/hello/settings.yaml", settings("hi"))
        .write("functions/hello/route.yaml", route("/greet"));
    copy.commit("hello, its settings and its route");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "shop", http.url(repository.name()), Map.of());

    FunctionAnswers.awaitAnswer(client, ns.name(), "hello", "hi from hello");
    assertThat(traefik.awaitStatus(HOST, "/greet", 200, Duration.ofMinutes(1)).body()).isEqualTo("hi from hello");
    assertThat(traefik.get(HOST, "/welcome").status()).isEqualTo(404);

    try (JobLog jobs = JobLog.watch(client, ns);
        RouteLoad load = RouteLoad.start(traefik, HOST, "/greet", "/welcome")) {
      int builds = jobs.uids().size();
      copy.write("functions/hello/settings.yaml", settings("good morning"));
      copy.commit("a new greeting");
      copy.push();
      requestReconcile(client, ns.name(), "shop");
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT)
          .until(() -> load.lastBody("/greet").equals("good morning from hello"));
      assertThat(jobs.uids()).as("build Jobs for a ConfigMap change").hasSize(builds);

      copy.write("functions/hello/route.yaml", route("/welcome"));
      copy.commit("the route moves to /welcome");
      copy.push();
      requestReconcile(client, ns.name(), "shop");
      await().atMost(Duration.ofMinutes(1)).until(() -> load.statusOf("/welcome") == 200
          && load.statusOf("/greet") == 404);

      copy.git("revert", "--no-edit", "HEAD");
      copy.push();
      requestReconcile(client, ns.name(), "shop");
      await().atMost(Duration.ofMinutes(1)).until(() -> load.statusOf("/greet") == 200
          && load.statusOf("/welcome") == 404);
      load.stopAfterAnswers(40);

      assertThat(load.requests()).as("requests through the route while it changed").isGreaterThan(200);
      assertThat(load.failures()).as("answers other than 200 and 404, and requests with no answer").isEmpty();
      assertThat(load.statuses()).as("each path moves once for each move in Git, and never flaps").isEqualTo(Map.of(
          "/greet", List.of(200, 404, 200), "/welcome", List.of(404, 200, 404)));
      assertThat(jobs.uids()).as("build Jobs for route changes").hasSize(builds);
    }

    copy.git("rm", "--quiet", "functions/hello/route.yaml");
    copy.commit("hello is not exposed any more");
    copy.push();
    requestReconcile(client, ns.name(), "shop");
    traefik.awaitStatus(HOST, "/greet", 404, Duration.ofMinutes(1));
    await().atMost(Duration.ofSeconds(30)).until(() -> client.genericKubernetesResources(
        "gateway.networking.k8s.io/v1", "HTTPRoute").inNamespace(ns.name()).withName("hello").get() == null);
    FunctionAnswers.awaitAnswer(client, ns.name(), "hello", "good morning from hello");
  }

  /**
   * getting-started.md's steps 4 and 5 on the real node: gitops-examples as a fork holds it, a FunctionRepository on
   * its functions folder, the Gateway the sample's route names; every Function answers, orders-from-git built from
   * the repository itself, and the greeting app through its route.
   */
  @Test
  void theSampleRepositoryDeploysWholeAndItsGreetingAppAnswersThroughItsRoute(KubernetesClient client,
      TestNamespace ns, Traefik traefik, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    gitfn.prepare(client, ns.name());
    traefik.createGateway(client, ns.name());
    WorkingCopy copy = git.clone(http.url(repository.name()));
    Path examples = TestBedBinaries.projectDir().resolve("gitops-examples");
    try (Stream<Path> files = Files.walk(examples)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        copy.write("gitops-examples/" + examples.relativize(file), Files.readString(file));
      }
    }
    copy.commit("gitops-examples");
    copy.push();
    gitSecret(client, ns.name(), http);
    client.resource(client.getKubernetesSerialization().unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: examples, namespace: %s}
        spec:
          url: %s
          ref: {branch: main}
          path: gitops-examples/functions
          interval: 1m
          secretRef: {name: git}
        """.formatted(ns.name(), http.url(repository.name())), FunctionRepository.class)).create();

    for (String name : List.of("hello", "greeter", "py-hello", "orders", "orders-from-git", "greeting")) {
      FunctionAnswers.awaitRunning(client, ns.name(), name);
    }
    Traefik.Answer greeting = traefik.awaitStatus("greeting.example.local", "/greeting", 200, Duration.ofMinutes(1));
    assertThat(greeting.body()).isEqualTo("Hello from a ConfigMap");
    FunctionRepository applied = Repositories.repository(client, ns.name(), "examples");
    assertThat(applied.getStatus().getObjects()).extracting(o -> o.getKind() + " " + o.getName())
        .containsExactly("HTTPRoute greeting");
    assertThat(applied.getStatus().getConfigMaps()).extracting(c -> c.getName())
        .containsExactly("greeting-settings");
  }

  private static String settings(String greeting) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: hello-settings
        data:
          greeting: "%s"
        """.formatted(greeting);
  }

  private static String route(String path) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: hello
        spec:
          parentRefs: [{name: %s}]
          hostnames: [%s]
          rules:
            - matches: [{path: {type: PathPrefix, value: %s}}]
              backendRefs: [{name: hello, port: 80}]
        """.formatted(Traefik.GATEWAY_NAME, HOST, path);
  }
}
