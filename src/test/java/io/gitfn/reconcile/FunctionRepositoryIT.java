package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.api.function.FunctionRuntime.PYTHON312;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The FunctionRepository controller against a real API server and a real Git server: the namespace's Functions
 * follow the repository's folder, commit by commit, and an invalid commit changes nothing.
 */
@WithKubeApi
@ExtendWith(GitServers.class)
class FunctionRepositoryIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "controller", ControllerSettings.defaults());
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void functionsFollowTheRepositoryCommitByCommit(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", function("bye", PYTHON312, "v1").toYaml());
    String first = copy.commit("two functions");
    copy.push();

    createRepository(client, ns, http, repository, Map.of());

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(functionNames(client, ns)).containsExactlyInAnyOrder("hello", "bye");
      assertThat(repository(client, ns).getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + first);
      // Only an API server here: nothing runs the Functions' Deployments, so the revision is applied, not running.
      assertThat(condition(client, ns, "Ready")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("Unknown");
        assertThat(c.getReason()).isEqualTo("RollingOut");
        assertThat(c.getMessage()).startsWith("revision main@sha1:" + first + " is applied; 2 of 2 Functions do not"
            + " run it yet: ");
      });
      assertThat(repository(client, ns).getStatus().getPending()).extracting("name")
          .containsExactlyInAnyOrder("hello", "bye");
    });
    Function hello = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(hello.getMetadata().getLabels()).containsEntry("gitfn.io/repository", ns.name() + ".infra");
    assertThat(client.v1().events().inNamespace(ns.name()).list().getItems())
        .anySatisfy(e -> {
          assertThat(e.getInvolvedObject().getName()).isEqualTo("infra");
          assertThat(e.getReason()).isEqualTo("RollingOut");
          assertThat(e.getMessage()).contains("main@sha1:" + first).contains("2 created");
        });

    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml());
    copy.git("rm", "-q", "functions/bye.yaml");
    String second = copy.commit("change hello, remove bye");
    copy.push();
    requestReconcile(client, ns);

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(functionNames(client, ns)).containsExactly("hello");
      assertThat(env(client, ns, "hello")).isEqualTo("v2");
      FunctionRepository status = repository(client, ns);
      assertThat(status.getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + second);
      assertThat(status.getStatus().getInventory()).extracting("name").containsExactly("hello");
      assertThat(status.getStatus().getHistory()).extracting("revision")
          .containsExactly("main@sha1:" + second, "main@sha1:" + first);
      assertThat(status.getStatus().getHistory().get(0).getDeleted()).isEqualTo(1);
      assertThat(status.getStatus().getHistory().get(0)).as("the commit, as a person knows it").satisfies(r -> {
        assertThat(r.getMessage()).isEqualTo("change hello, remove bye");
        assertThat(r.getAuthor()).isEqualTo(GitClient.AUTHOR_NAME);
        assertThat(java.time.Instant.parse(r.getCommitTime())).isBefore(java.time.Instant.now().plusSeconds(60));
      });
    });
  }

  @Test
  void anInvalidCommitChangesNothingAndTheNextValidOneApplies(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String good = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("good");
    copy.push();
    createRepository(client, ns, http, repository, Map.of());
    await().atMost(WAIT).until(() -> ("main@sha1:" + good).equals(repository(client, ns).getStatus().getLastAppliedRevision()));

    // A runtime FunctionRuntime cannot hold, so the file is edited as text.
    String cobol = function("hello", NODEJS22, "v2").toYaml().replace("nodejs22", "cobol85");
    String bad = copy.write("functions/hello.yaml", cobol)
        .write("functions/other.yaml", function("other", NODEJS22, "v1").toYaml()).commit("bad runtime");
    copy.push();
    requestReconcile(client, ns);

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(client, ns, "Stalled")).hasValueSatisfying(c -> {
        assertThat(c.getReason()).isEqualTo("InvalidRevision");
        assertThat(c.getMessage()).contains("functions/hello.yaml:").contains("cobol85");
      });
      assertThat(repository(client, ns).getStatus().getLastAttemptedRevision()).isEqualTo("main@sha1:" + bad);
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems())
          .anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("InvalidRevision");
          });
    });
    assertThat(repository(client, ns).getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + good);
    assertThat(functionNames(client, ns)).containsExactly("hello");
    assertThat(env(client, ns, "hello")).isEqualTo("v1");

    String fixed = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml()).commit("fix");
    copy.push();
    requestReconcile(client, ns);
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(repository(client, ns).getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + fixed);
      assertThat(functionNames(client, ns)).containsExactlyInAnyOrder("hello", "other");
      assertThat(condition(client, ns, "Stalled")).isEmpty();
    });
  }

  @Test
  void aSignedWebhookAppliesAPushAtOnceAndIsRecordedInStatus(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("first");
    copy.push();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("hook").endMetadata()
        .addToStringData("token", "s3cret").build()).create();
    createRepository(client, ns, http, repository, Map.of("webhook", Map.of("secretRef", Map.of("name", "hook"))));
    await().atMost(WAIT).until(() -> ("main@sha1:" + first).equals(repository(client, ns).getStatus().getLastAppliedRevision()));

    String second = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("second");
    copy.push();
    byte[] body = ("{\"repository\":\"" + http.url(repository.name()) + "\",\"ref\":\"refs/heads/main\",\"after\":\""
        + second + "\"}").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(running.controller().webhookUri().resolve("generic"))
            .header("Content-Type", "application/json").header("X-Delivery-Id", "delivery-" + ns.name())
            .header("X-Signature", "sha256=" + hmac("s3cret", body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);

    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      FunctionRepository current = repository(client, ns);
      assertThat(current.getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + second);
      assertThat(current.getStatus().getLastWebhook().getForge()).isEqualTo("generic");
      assertThat(current.getStatus().getLastWebhook().getDeliveryId()).isEqualTo("delivery-" + ns.name());
    });
  }

  @Test
  void aDeletedBranchIsReportedAndWhatWasAppliedStays(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("first");
    copy.push();
    createRepository(client, ns, http, repository, Map.of());
    await().atMost(WAIT).until(() -> ("main@sha1:" + first).equals(repository(client, ns).getStatus().getLastAppliedRevision()));

    copy.push("HEAD:refs/heads/keep", ":refs/heads/main");
    requestReconcile(client, ns);

    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(client, ns, "Ready")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("SourceFailed");
      assertThat(c.getMessage()).contains("main@sha1:" + first).contains("main");
    }));
    assertThat(repository(client, ns).getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + first);
    assertThat(functionNames(client, ns)).containsExactly("hello");
  }

  @Test
  void aSuspendedRepositoryReportsGitButAppliesNothing(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("first");
    copy.push();

    createRepository(client, ns, http, repository, Map.of("suspend", true));

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(repository(client, ns).getStatus().getLastFetchedRevision()).isEqualTo("main@sha1:" + first);
      assertThat(condition(client, ns, "Ready")).hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("Suspended"));
    });
    assertThat(functionNames(client, ns)).isEmpty();
  }

  @Test
  void theDashboardShowsTheRepositoryFromTheControllersCache(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String sha = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push();
    createRepository(client, ns, http, repository, Map.of());
    URI dashboard = running.controller().dashboardUri().orElseThrow();

    await().atMost(WAIT).untilAsserted(() -> {
      String page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(dashboard).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(page).contains("<span class=\"namespace\">" + ns.name() + "/</span>infra")
          .contains("title=\"main@sha1:" + sha + "\"")
          .contains("<code>" + http.url(repository.name()) + "</code>");
    });
  }

  /** The interval here is an hour, and a full pass comes at most every ten minutes: only the watch can do this. */
  @Test
  void aFunctionEditedOrDeletedByHandIsSetBackAtOnce(
      KubernetesClient client, TestNamespace ns, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/bye.yaml", function("bye", PYTHON312, "v1").toYaml()).commit("two functions");
    copy.push();
    createRepository(client, ns, http, repository, Map.of());
    await().atMost(WAIT).until(() -> functionNames(client, ns).size() == 2);

    FunctionEdits.edit(client, ns, "hello", f -> {
      f.getSpec().getEnv().get(0).setValue("edited by hand");
      return f;
    });
    client.resources(Function.class).inNamespace(ns.name()).withName("bye").delete();

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(env(client, ns, "hello")).isEqualTo("v1");
      Function bye = client.resources(Function.class).inNamespace(ns.name()).withName("bye").get();
      assertThat(bye).as("bye, made again").isNotNull();
      assertThat(bye.getMetadata().getDeletionTimestamp()).isNull();
    });
  }

  @Test
  void deletingARepositoryDeletesItsFunctionsButNotOthers(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push();
    client.resource(function("by-hand", NODEJS22, "v1").build()).inNamespace(ns.name()).create();
    createRepository(client, ns, http, repository, Map.of());
    await().atMost(WAIT).until(() -> functionNames(client, ns).contains("hello"));

    client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").delete();

    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(repositoryGone(client, ns)).isTrue();
      assertThat(functionNames(client, ns)).containsExactly("by-hand");
    });
  }

  @Test
  void deletingARepositoryWithPruneOffLeavesItsFunctions(KubernetesClient client, TestNamespace ns,
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push();
    createRepository(client, ns, http, repository, Map.of("prune", false));
    await().atMost(WAIT).until(() -> functionNames(client, ns).contains("hello"));

    client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").delete();

    await().atMost(WAIT).until(() -> repositoryGone(client, ns));
    assertThat(functionNames(client, ns)).containsExactly("hello");
  }

  private static boolean repositoryGone(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get() == null;
  }

  private static void createRepository(KubernetesClient client, TestNamespace ns, GitHttpServer http,
      BareRepository repository, Map<String, Object> extraSpec) {
    Repositories.gitSecret(client, ns.name(), http);
    Repositories.create(client, ns.name(), "infra", http.url(repository.name()), extraSpec);
  }

  private static void requestReconcile(KubernetesClient client, TestNamespace ns) {
    Repositories.requestReconcile(client, ns.name(), "infra");
  }

  private static TestFunction function(String name, FunctionRuntime runtime, String version) {
    return Repositories.function(name, runtime, version);
  }

  private static java.util.List<String> functionNames(KubernetesClient client, TestNamespace ns) {
    return Repositories.functionNames(client, ns.name());
  }

  private static String env(KubernetesClient client, TestNamespace ns, String name) {
    return Repositories.version(client, ns.name(), name);
  }

  private static FunctionRepository repository(KubernetesClient client, TestNamespace ns) {
    return Repositories.repository(client, ns.name(), "infra");
  }

  private static Optional<Condition> condition(KubernetesClient client, TestNamespace ns, String type) {
    return Repositories.condition(client, ns.name(), "infra", type);
  }

  private static String hmac(String secret, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(body));
  }
}
