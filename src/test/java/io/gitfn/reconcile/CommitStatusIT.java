package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.CommitStatusReport;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
    running = ControllerUnderTest.start(bed, "commit-status", ControllerSettings.defaults().withClusterName("kind-a"),
        BuildSettings.defaults().withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofSeconds(2))));
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
    WorkingCopy copy = repository(client, ns, repository, home, gitea.createToken("gitfn-" + ns.name()));
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
        .runtimeImageOverride(KwokBuildStages.FAILING_REGISTRY + "/broken:1").toYaml()).commit("one that fails");
    copy.push("HEAD:refs/heads/main");
    Repositories.requestReconcile(client, ns.name(), "infra");

    await().atMost(WAIT).untilAsserted(() -> assertThat(gitea.commitStatuses(repository, broken))
        .first().satisfies(s -> {
          assertThat(s.get("status").asText()).isEqualTo("failure");
          assertThat(s.get("description").asText()).startsWith("1 of 2 Functions failed: broken: Job broken-");
        }));
    assertThat(gitea.commitStatuses(repository, good)).as("an older commit keeps its own")
        .first().satisfies(s -> assertThat(s.get("status").asText()).isEqualTo("success"));
  }

  @Test
  void aTokenTheForgeRefusesShowsInStatusAndHoldsNothingUp(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    String repository = "infra-" + ns.name();
    WorkingCopy copy = repository(client, ns, repository, home, "not-a-token");
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

  /** A Gitea repository with a FunctionRepository that reports to it with {@code token}; polled every 10 s. */
  private static WorkingCopy repository(KubernetesClient client, TestNamespace ns, String name, Path home,
      String token) throws Exception {
    String cloneUrl = gitea.createRepository(name);
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("forge")
        .endMetadata().withStringData(Map.of("token", token)).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: "
            + ns.name() + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 10s,"
            + " secretRef: {name: git}, commitStatus: {forge: gitea, secretRef: {name: forge}}}}",
        FunctionRepository.class)).create();
    return copy;
  }

  private static FunctionRepository infra(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }
}
