package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.events.EventRecorder;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.People;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's actions against a real API server: its TokenReview decides who a token is, its RBAC (through a
 * SubjectAccessReview) what they may do, and the change lands on the object, over HTTP as a browser sends it.
 */
@WithKubeApi
class ClusterActionsIT {

  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private final HttpClient http = HttpClient.newHttpClient();
  private DashboardServer server;

  @BeforeEach
  void start(KubeTestBed bed, KubernetesClient client, TestNamespace ns) throws Exception {
    bed.installCrds();
    server = DashboardServer.start("127.0.0.1", 0, live(client, ns), (namespace, name) -> List.of(),
        (namespace, job, whole) -> BuildLog.missing("none"),
        Optional.of(new ClusterActions(client, Clock.systemUTC(),
            new EventRecorder(client, Clock.systemUTC(), "gitfn-test"))));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void anOperatorPinsAndUnpinsAFunctionToARevisionOfItsHistory(KubernetesClient client, TestNamespace ns)
      throws Exception {
    createFunctionWithHistory(client, ns);
    String operator = People.withRole(client, ns.name(), "operator", new PolicyRuleBuilder()
        .withApiGroups("serverless.kyma-project.io").withResources("functions").withVerbs("patch").build());

    HttpResponse<String> pinned = post("/functions/" + ns.name() + "/hello/actions/pin?revision=" + SHA.substring(0, 7),
        operator);
    assertThat(pinned.statusCode()).as(pinned.body()).isEqualTo(200);
    assertThat(pinned.body()).isEqualTo("pinned Function " + ns.name() + "/hello to main@sha1:" + SHA
        + " (image registry.local/hello:k1)\n");
    assertThat(annotations(client, ns)).containsEntry(Annotations.PINNED_REVISION, "main@sha1:" + SHA);

    HttpResponse<String> unknown = post("/functions/" + ns.name() + "/hello/actions/pin?revision=fedcba9", operator);
    assertThat(unknown.statusCode()).isEqualTo(409);
    assertThat(unknown.body()).contains("fedcba9").endsWith("nothing changed\n");

    assertThat(post("/functions/" + ns.name() + "/hello/actions/unpin", operator).statusCode()).isEqualTo(200);
    assertThat(annotations(client, ns)).doesNotContainKey(Annotations.PINNED_REVISION);
    String who = People.user(ns.name(), "operator");
    assertThat(actionEvents(client, ns, "Function", "hello")).as("kubectl describe tells who did it")
        .containsExactlyInAnyOrder(
            who + " pinned Function " + ns.name() + "/hello to main@sha1:" + SHA + " (image registry.local/hello:k1)"
                + " from the dashboard",
            who + " unpinned Function " + ns.name() + "/hello from the dashboard");
  }

  @Test
  void aTokenTheApiServerDoesNotKnowAndAPersonWithoutTheRightChangeNothing(KubernetesClient client,
      TestNamespace ns) throws Exception {
    createFunctionWithHistory(client, ns);
    String viewer = People.withNoRights(client, ns.name(), "viewer");
    String repositoriesOnly = People.withRole(client, ns.name(), "repositories-only", new PolicyRuleBuilder()
        .withApiGroups("gitfn.io").withResources("functionrepositories").withVerbs("patch").build());

    HttpResponse<String> madeUp = post("/functions/" + ns.name() + "/hello/actions/reconcile", "not-a-token");
    HttpResponse<String> noRights = post("/functions/" + ns.name() + "/hello/actions/reconcile", viewer);
    HttpResponse<String> wrongKind = post("/functions/" + ns.name() + "/hello/actions/reconcile", repositoriesOnly);

    assertThat(madeUp.statusCode()).isEqualTo(401);
    assertThat(madeUp.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"gitfn dashboard\"");
    assertThat(noRights.statusCode()).isEqualTo(403);
    assertThat(noRights.body()).startsWith(People.user(ns.name(), "viewer") + " may not patch functions.");
    assertThat(wrongKind.statusCode()).isEqualTo(403);
    assertThat(annotations(client, ns)).doesNotContainKey(Annotations.REQUESTED_AT);
    assertThat(actionEvents(client, ns, "Function", "hello")).isEmpty();
  }

  @Test
  void anOperatorSuspendsAndResumesARepository(KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(client.getKubernetesSerialization().unmarshal("---\n{apiVersion: gitfn.io/v1alpha1, kind: "
        + "FunctionRepository, metadata: {name: infra, namespace: " + ns.name() + "}, spec: {url: "
        + "'https://git.example/infra.git', ref: {branch: main}}}", FunctionRepository.class)).create();
    String operator = People.withRole(client, ns.name(), "operator", new PolicyRuleBuilder()
        .withApiGroups("gitfn.io").withResources("functionrepositories").withVerbs("patch").build());

    assertThat(post("/repositories/" + ns.name() + "/infra/actions/suspend", operator).statusCode()).isEqualTo(200);
    assertThat(repository(client, ns).getSpec().getSuspend()).isTrue();
    assertThat(post("/repositories/" + ns.name() + "/infra/actions/resume", operator).statusCode()).isEqualTo(200);
    FunctionRepository resumed = repository(client, ns);
    assertThat(resumed.getSpec().getSuspend()).isFalse();
    assertThat(resumed.getMetadata().getAnnotations()).as("resume asks for a check, as gitfn resume does")
        .containsKey(Annotations.REQUESTED_AT);
    String who = People.user(ns.name(), "operator");
    assertThat(actionEvents(client, ns, "FunctionRepository", "infra")).containsExactlyInAnyOrder(
        who + " suspended FunctionRepository " + ns.name() + "/infra from the dashboard",
        who + " resumed FunctionRepository " + ns.name() + "/infra from the dashboard");
  }

  /** The messages of the Events the actions recorded on an object. */
  private static List<String> actionEvents(KubernetesClient client, TestNamespace ns, String kind, String name) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> ClusterActions.REASON.equals(e.getReason()) && kind.equals(e.getInvolvedObject().getKind())
            && name.equals(e.getInvolvedObject().getName()))
        .map(io.fabric8.kubernetes.api.model.Event::getMessage).toList();
  }

  private static void createFunctionWithHistory(KubernetesClient client, TestNamespace ns) {
    client.resource(TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null).build()).create();
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision("main@sha1:" + SHA);
    entry.setContentKey("k1");
    entry.setImage("registry.local/hello:k1");
    entry.setOutcome("Succeeded");
    entry.setTime("2026-11-26T10:00:00Z");
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    FunctionStatus status = new FunctionStatus();
    status.setHistory(List.of(entry));
    fn.setStatus(status);
    client.resource(fn).updateStatus();
  }

  private static java.util.Map<String, String> annotations(KubernetesClient client, TestNamespace ns) {
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    return fn.getMetadata().getAnnotations() == null ? java.util.Map.of() : fn.getMetadata().getAnnotations();
  }

  private static FunctionRepository repository(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }

  private HttpResponse<String> post(String path, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(server.baseUri().toString() + path.substring(1)))
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The namespace's objects straight from the API server, standing in for the controller's caches. */
  private static DashboardServer.Source live(KubernetesClient client, TestNamespace ns) {
    return new DashboardServer.Source() {
      @Override
      public Collection<FunctionRepository> repositories() {
        return client.resources(FunctionRepository.class).inNamespace(ns.name()).list().getItems();
      }

      @Override
      public Collection<Function> functions() {
        return client.resources(Function.class).inNamespace(ns.name()).list().getItems();
      }

      @Override
      public Optional<Deployment> deploymentOf(Function fn) {
        return Optional.empty();
      }

      @Override
      public Collection<Job> jobsOf(Function fn) {
        return List.of();
      }
    };
  }
}
