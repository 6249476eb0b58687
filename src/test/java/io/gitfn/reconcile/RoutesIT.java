package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.condition;
import static io.gitfn.reconcile.Repositories.create;
import static io.gitfn.reconcile.Repositories.function;
import static io.gitfn.reconcile.Repositories.gitSecret;
import static io.gitfn.reconcile.Repositories.repository;
import static io.gitfn.reconcile.Repositories.requestReconcile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.AppliedObject;
import io.gitfn.cli.Main;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * Routes from the infra repository (issue 31), through the controller, against a real API server and a real Git
 * server: an Ingress applies with the revision, is left unwritten while Git and the cluster agree, is put back when
 * edited by hand, and is pruned when it leaves Git; one the API server refuses names its file and line and applies
 * nothing of the revision; a kind the cluster does not serve (an APIRule from a Kyma CLI config.yaml, with no Kyma)
 * is refused at its file's line before anything is written; where Kyma's APIRule CRD is installed, that config.yaml's
 * APIRule is applied as {@code gitfn render} prints it.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class RoutesIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "routes", ControllerSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    running.close();
  }

  @Test
  void anIngressAppliesWithItsFunctionStaysUnwrittenAtRestIsRepairedAndLeavesWithGit(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", hello("v1")).write("functions/route.yaml", ingress("/hello"));
    copy.commit("hello and its route");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(path(client, ns.name())).isEqualTo("/hello");
      assertThat(applied(client, ns.name())).singleElement().satisfies(o -> {
        assertThat(o.getApiVersion()).isEqualTo("networking.k8s.io/v1");
        assertThat(o.getKind()).isEqualTo("Ingress");
        assertThat(o.getName()).isEqualTo("hello");
        assertThat(o.getFile()).isEqualTo("functions/route.yaml");
      });
    });
    Ingress route = client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").get();
    assertThat(route.getMetadata().getLabels()).containsEntry(Labels.REPOSITORY, ns.name() + ".infra");
    assertThat(route.getMetadata().getAnnotations()).containsKey(Annotations.APPLIED_DIGEST);

    copy.write("functions/hello.yaml", hello("v2"));
    String v2 = copy.commit("only the Function changes");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> assertThat(repository(client, ns.name(), "infra").getStatus()
        .getLastAppliedRevision()).contains(v2));
    assertThat(client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").get().getMetadata()
        .getResourceVersion()).as("a route that did not change is not written").isEqualTo(
            route.getMetadata().getResourceVersion());

    client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").edit(i -> {
      i.getSpec().getRules().get(0).getHttp().getPaths().get(0).setPath("/by-hand");
      return i;
    });
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> assertThat(path(client, ns.name())).as("drift is undone")
        .isEqualTo("/hello"));

    copy.write("functions/route.yaml", ingress("/greetings"));
    copy.commit("the route moves");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> assertThat(path(client, ns.name())).isEqualTo("/greetings"));

    copy.git("rm", "--quiet", "functions/route.yaml");
    copy.commit("no route any more");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").get()).isNull();
      assertThat(applied(client, ns.name())).isNull();
    });
    assertThat(Repositories.functionNames(client, ns.name())).containsExactly("hello");
  }

  @Test
  void withPruneFalseARouteThatLeftGitStays(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", hello("v1")).write("functions/route.yaml", ingress("/hello"));
    copy.commit("hello and its route");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of("prune", false));
    await().atMost(WAIT).untilAsserted(() -> assertThat(path(client, ns.name())).isEqualTo("/hello"));

    copy.git("rm", "--quiet", "functions/route.yaml");
    String without = copy.commit("no route any more");
    copy.push();
    requestReconcile(client, ns.name(), "infra");

    await().atMost(WAIT).untilAsserted(() -> assertThat(repository(client, ns.name(), "infra").getStatus()
        .getLastAppliedRevision()).contains(without));
    assertThat(path(client, ns.name())).as("not pruned: spec.prune is false").isEqualTo("/hello");
  }

  @Test
  void aRouteTheApiServerRefusesOrAKindTheClusterDoesNotServeAppliesNothingAndNamesItsFile(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", hello("v1"))
        .write("functions/route.yaml", ingress("/hello").replace("pathType: Prefix", "pathType: Sometimes"));
    String invalid = copy.commit("a route with a path type Kubernetes does not know");
    copy.push();
    gitSecret(client, ns.name(), http);
    create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

    assertThat(awaitRefused(client, ns.name(), invalid)).contains("functions/route.yaml:1: Ingress " + ns.name()
        + "/hello cannot be applied").contains("pathType").contains("Sometimes");
    assertThat(Repositories.functionNames(client, ns.name())).as("nothing of the revision").isEmpty();

    copy.git("rm", "--quiet", "functions/route.yaml", "functions/hello.yaml");
    copy.write("functions/orders/config.yaml", """
        name: orders
        runtime: nodejs22
        apiRules:
          - rules: [{path: /.*, methods: [GET], accessStrategies: [{handler: allow}]}]
        """).write("functions/orders/handler.js", "module.exports = { main: () => 'orders' };\n")
        .write("functions/orders/package.json", "{}\n");
    String apiRule = copy.commit("a Kyma CLI folder with an APIRule, on a cluster without Kyma");
    copy.push();
    requestReconcile(client, ns.name(), "infra");
    assertThat(awaitRefused(client, ns.name(), apiRule)).contains("functions/orders/config.yaml:4: APIRule"
        + " (gateway.kyma-project.io/v2) is not served by this cluster");
    assertThat(Repositories.functionNames(client, ns.name())).isEmpty();
  }

  @Test
  void aKymaCliConfigsApiRulesApplyAsRenderShowsThemOnAClusterWithKymasApiRule(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    CustomResourceDefinition crd = client.getKubernetesSerialization().unmarshal(
        RoutesIT.class.getResourceAsStream("apirules-v2.crd.yaml"), CustomResourceDefinition.class);
    client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    try {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(KubeTestBed::established, 30, java.util.concurrent.TimeUnit.SECONDS);
      WorkingCopy copy = git.clone(http.url(repository.name()));
      copy.write("functions/orders/config.yaml", """
          name: orders
          runtime: nodejs22
          apiRules:
            - service: {host: orders.example.com}
              rules:
                - {path: /.*, methods: [GET], accessStrategies: [{handler: allow}]}
                - path: /admin/.*
                  methods: [DELETE]
                  accessStrategies:
                    - handler: jwt
                      config: {trustedIssuers: [https://issuer.example.com], jwksUrls: [https://issuer.example.com/jwks]}
          """).write("functions/orders/handler.js", "module.exports = { main: () => 'orders' };\n")
          .write("functions/orders/package.json", "{}\n");
      copy.commit("a Kyma CLI folder with an APIRule");
      copy.push();
      gitSecret(client, ns.name(), http);
      create(client, ns.name(), "infra", http.url(repository.name()), Map.of());

      GenericKubernetesResource live = await().atMost(WAIT).until(() -> client.genericKubernetesResources(
          "gateway.kyma-project.io/v2", "APIRule").inNamespace(ns.name()).withName("orders").get(),
          java.util.Objects::nonNull);
      StringWriter out = new StringWriter();
      CommandLine render = new CommandLine(new Main());
      render.setOut(new PrintWriter(out));
      render.setErr(new PrintWriter(new StringWriter()));
      assertThat(render.execute("render", copy.directory().toString(), "--path", "functions", "-n", ns.name(),
          "-o", "json")).isZero();
      JsonNode rendered = StreamSupport.stream(new ObjectMapper().readTree(out.toString()).path("items")
          .spliterator(), false).filter(item -> item.path("kind").asText().equals("APIRule")).findFirst()
          .orElseThrow();
      JsonNode applied = new ObjectMapper().valueToTree(live.getAdditionalProperties().get("spec"));
      assertThat(applied)
          .as("the APIRule in the cluster, as render printed it").isEqualTo(rendered.path("spec"));
      assertThat(live.getMetadata().getLabels()).containsEntry(Labels.REPOSITORY, ns.name() + ".infra");
      assertThat(applied(client, ns.name())).extracting(o -> o.getKind() + " " + o.getName() + " " + o.getFile())
          .containsExactly("APIRule orders functions/orders/config.yaml");
    } finally {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).delete();
      await().atMost(WAIT).until(() -> client.apiextensions().v1().customResourceDefinitions()
          .withName(crd.getMetadata().getName()).get() == null);
    }
  }

  private static String awaitRefused(KubernetesClient client, String namespace, String commit) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, namespace, "infra", "Ready"))
        .hasValueSatisfying(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("ApplyRefused");
          assertThat(c.getMessage()).contains(commit);
        }));
    return condition(client, namespace, "infra", "Ready").orElseThrow().getMessage();
  }

  /** Buildless, so that its Deployment exists on a test bed that runs no build. */
  private static String hello(String version) {
    return function("hello", NODEJS22, version).metadataAnnotation(Annotations.BUILD_MODE, "buildless").toYaml();
  }

  private static String ingress(String path) {
    return """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: hello
        spec:
          rules:
            - host: hello.example.com
              http:
                paths:
                  - path: %s
                    pathType: Prefix
                    backend: {service: {name: hello, port: {number: 80}}}
        """.formatted(path);
  }

  private static String path(KubernetesClient client, String namespace) {
    Ingress ingress = client.network().v1().ingresses().inNamespace(namespace).withName("hello").get();
    return ingress == null ? null : ingress.getSpec().getRules().get(0).getHttp().getPaths().get(0).getPath();
  }

  private static List<AppliedObject> applied(KubernetesClient client, String namespace) {
    return repository(client, namespace, "infra").getStatus().getObjects();
  }
}
