package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.CommitStatusReport;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each revision's outcome reaches the forge as a commit status, read back through a real Gitea's API: pending
 * while its Functions build and roll out, success once they run, failure with the reason when a build fails. A
 * forge that refuses the token shows in status and holds nothing up.
 */
@WithKubeCluster
class CommitStatusIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static ControllerUnderTest running;
  private static GiteaServer gitea;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"));
    running = ControllerUnderTest.start(bed, "commit-status", ControllerSettings.defaults().withClusterName("kind-a")
        .withFunctionSourceInterval(Duration.ofSeconds(2)),
        bed.layeredBuilds().settings().withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofSeconds(2))));
  }

  @AfterAll
  static void stop() throws Exception {
    try (GiteaServer closing = gitea) {
      running.close();
    }
  }

  @Test
  void theForgeShowsPendingThenSuccessForARevisionThatRunsAndFailureForOneThatDoesNot(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    String repository = "infra-" + ns.name();
    try (NotificationReceiver receiver = NotificationReceiver.start()) {
    WorkingCopy copy = repository(client, ns, repository, home, gitea.createToken("gitfn-" + ns.name()),
        receiver.url());
    String good = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push("HEAD:refs/heads/main");
    String context = "gitfn/kind-a/" + ns.name() + "/infra";

    await().atMost(WAIT).untilAsserted(() -> assertThat(gitea.commitStatuses(repository, good))
        .extracting(s -> s.get("status").asText()).contains("success"));
    List<JsonNode> statuses = gitea.commitStatuses(repository, good);
    assertThat(statuses).allSatisfy(s -> assertThat(s.get("context").asText()).isEqualTo(context));
    assertThat(statuses).extracting(s -> s.get("status").asText()).as("oldest last").endsWith("pending");
    assertThat(statuses.get(0).get("description").asText()).isEqualTo("runs: 1 Function ready");
    await().atMost(WAIT).untilAsserted(() -> assertThat(infra(client, ns).getStatus().getCommitStatus())
        .extracting(CommitStatusReport::getRevision, CommitStatusReport::getState, CommitStatusReport::getResult)
        .containsExactly("main@sha1:" + good, "success", "Sent"));

    String broken = copy.write("functions/broken.yaml", function("broken", NODEJS22, "v1")
        .dependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES).toYaml()).commit("one that fails");
    copy.push("HEAD:refs/heads/main");
    Repositories.requestReconcile(client, ns.name(), "infra");

    await().atMost(WAIT).untilAsserted(() -> assertThat(gitea.commitStatuses(repository, broken))
        .first().satisfies(s -> {
          assertThat(s.get("status").asText()).isEqualTo("failure");
          assertThat(s.get("description").asText()).startsWith("1 of 2 Functions failed: broken: Job gitfn-");
        }));
    assertThat(gitea.commitStatuses(repository, good)).as("an older commit keeps its own")
        .first().satisfies(s -> assertThat(s.get("status").asText()).isEqualTo("success"));

    // The same news, signed, to the generic endpoint: one POST per state of each revision.
    await().atMost(WAIT).untilAsserted(() -> assertThat(receiver.received())
        .extracting(n -> n.get("revision").asText() + " " + n.get("state").asText() + " " + n.get("reason").asText())
        .containsSubsequence("main@sha1:" + good + " pending RollingOut", "main@sha1:" + good + " success Succeeded",
            "main@sha1:" + broken + " failure FunctionsFailed"));
    assertThat(receiver.received()).allSatisfy(n -> {
      assertThat(n.get("kind").asText()).isEqualTo("FunctionRepository");
      assertThat(n.get("context").asText()).isEqualTo(context);
      assertThat(n.get("cluster").asText()).isEqualTo("kind-a");
    });
    assertThat(receiver.badSignatures()).as("bodies whose X-Gitfn-Signature did not verify").isZero();
    assertThat(infra(client, ns).getStatus().getNotification().getResult()).isEqualTo("Sent");
    }
  }

  @Test
  void anInvalidRevisionsStatusStartsWithTheFileLineAndFieldAtFault(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    String repository = "infra-" + ns.name();
    WorkingCopy copy = repository(client, ns, repository, home, gitea.createToken("gitfn-" + ns.name()), null);
    // A runtime FunctionRuntime cannot hold, so the file is edited as text; a deep path, as real repositories have.
    String path = "functions/payments-team/checkout-service/handlers/hello.yaml";
    String bad = copy.write(path, function("hello", NODEJS22, "v1").toYaml().replace("nodejs22", "cobol85"))
        .commit("an invalid runtime");
    copy.push("HEAD:refs/heads/main");

    await().atMost(WAIT).untilAsserted(() -> assertThat(gitea.commitStatuses(repository, bad)).first()
        .satisfies(s -> {
          assertThat(s.get("status").asText()).isEqualTo("failure");
          // Gitea keeps 255 characters: the error a person must fix comes first, what stays after it.
          assertThat(s.get("description").asText()).startsWith(path + ":").contains("cobol85");
        }));
  }

  @Test
  void aTokenTheForgeRefusesShowsInStatusAndHoldsNothingUp(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    String repository = "infra-" + ns.name();
    WorkingCopy copy = repository(client, ns, repository, home, "not-a-token", null);
    String commit = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml()).commit("hello");
    copy.push("HEAD:refs/heads/main");

    await().atMost(WAIT).untilAsserted(() -> {
      FunctionRepository infra = infra(client, ns);
      assertThat(Conditions.find(infra.getStatus().getConditions(), "Ready"))
          .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
      assertThat(infra.getStatus().getCommitStatus()).satisfies(r -> {
        assertThat(r.getRevision()).isEqualTo("main@sha1:" + commit);
        assertThat(r.getState()).isEqualTo("success");
        assertThat(r.getResult()).isEqualTo("Rejected");
        assertThat(r.getError()).startsWith("REJECTED 401");
      });
    });
    assertThat(gitea.commitStatuses(repository, commit)).isEmpty();
  }

  @Test
  void aFunctionWithAGitSourceReportsTheCommitItRunsUnderItsOwnContext(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    String repository = "hello-" + ns.name();
    String cloneUrl = gitea.createRepository(repository);
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    String commit = copy.write("hello/handler.js", "module.exports = { main: () => 'v1' };\n")
        .write("hello/package.json", "{\"name\": \"hello\"}\n").commit("hello");
    copy.push("HEAD:refs/heads/main");
    client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("forge")
        .endMetadata().withStringData(Map.of("token", gitea.createToken("fn-" + ns.name()))).build()).create();
    client.resource(TestFunction.fromGit(cloneUrl, "main", "hello").named("hello").inNamespace(ns.name()).uid(null)
        .gitAuth(AuthType.BASIC, "git").metadataAnnotation(Annotations.COMMIT_STATUS_SECRET, "forge")
        .metadataAnnotation(Annotations.COMMIT_STATUS_FORGE, "gitea").build()).create();

    await().atMost(WAIT).untilAsserted(() -> assertThat(gitea.commitStatuses(repository, commit)).first()
        .satisfies(s -> {
          assertThat(s.get("status").asText()).isEqualTo("success");
          assertThat(s.get("context").asText()).isEqualTo("gitfn/kind-a/" + ns.name() + "/function/hello");
          assertThat(s.get("description").asText()).isEqualTo("runs");
        }));
    await().atMost(WAIT).untilAsserted(() -> assertThat(client.resources(Function.class).inNamespace(ns.name())
        .withName("hello").get().getStatus().getCommitStatus()).extracting(CommitStatusReport::getRevision,
        CommitStatusReport::getResult).containsExactly("main@sha1:" + commit, "Sent"));
  }

  /** A Gitea repository with a FunctionRepository that reports to it with {@code token}; polled every 10 s. */
  private static WorkingCopy repository(KubernetesClient client, TestNamespace ns, String name, Path home,
      String token, String notificationUrl) throws Exception {
    String cloneUrl = gitea.createRepository(name);
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("forge")
        .endMetadata().withStringData(Map.of("token", token)).build()).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().withStringData(Map.of("token", NotificationReceiver.SECRET)).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: "
            + ns.name() + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 10s,"
            + " secretRef: {name: git}, commitStatus: {forge: gitea, secretRef: {name: forge}}"
            + (notificationUrl == null ? "" : ", notification: {url: '" + notificationUrl + "', secretRef: {name:"
                + " hook}}") + "}}",
        FunctionRepository.class)).create();
    return copy;
  }

  /** A generic notification endpoint that keeps each body and checks its signature with its own HMAC. */
  private static final class NotificationReceiver implements AutoCloseable {
    static final String SECRET = "hook-secret";
    private final HttpServer server;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger badSignatures = new AtomicInteger();

    private NotificationReceiver(HttpServer server) {
      this.server = server;
    }

    static NotificationReceiver start() throws Exception {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      NotificationReceiver receiver = new NotificationReceiver(server);
      server.createContext("/hooks/gitfn", exchange -> {
        byte[] body = exchange.getRequestBody().readNBytes(64 * 1024);
        Mac mac = hmac();
        String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        if (!expected.equals(exchange.getRequestHeaders().getFirst("X-Gitfn-Signature"))) {
          receiver.badSignatures.incrementAndGet();
        }
        receiver.received.add(new ObjectMapper().readTree(body));
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      });
      server.start();
      return receiver;
    }

    private static Mac hmac() {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return mac;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/gitfn";
    }

    List<JsonNode> received() {
      return received;
    }

    int badSignatures() {
      return badSignatures.get();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  private static FunctionRepository infra(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }
}
