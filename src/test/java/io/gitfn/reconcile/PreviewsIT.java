package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Preview;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Previews of pull requests against a real Gitea that delivers its pull-request webhooks to gitfn's receiver, on a
 * real API server: a labelled pull request gets a namespace of its own running its head, a commit status whose target
 * is the preview's URL and one comment that gitfn edits as the preview moves; one without the label gets nothing;
 * closing it removes the preview. The forge's list is read once at the start and then every 10 minutes, so only the
 * webhooks can bring what the test waits for.
 */
@WithKubeCluster
class PreviewsIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String HOOK_SECRET = "previews-hook-secret";
  private static ControllerUnderTest running;
  private static GiteaServer gitea;

  @BeforeAll
  static void start(KubeTestBed bed) throws Exception {
    gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"));
    running = ControllerUnderTest.start(bed, "previews", ControllerSettings.defaults().withClusterName("kind-a"),
        bed.layeredBuilds().settings().withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofSeconds(1))));
  }

  @AfterAll
  static void stop() throws Exception {
    try (GiteaServer closing = gitea) {
      running.close();
    }
  }

  @Test
  void aLabelledPullRequestGetsAPreviewThatFollowsItsHeadAndGoesWhenItCloses(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    String repository = "previews-" + ns.name();
    String cloneUrl = gitea.createRepository(repository);
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    copy.write("functions/hello.yaml", function("hello", NODEJS22, "v1").toYaml())
        .write("functions/orders.yaml", function("orders", NODEJS22, "v1").toYaml())
        .write("functions/greeting.yaml", function("greeting", NODEJS22, "v1").toYaml()).commit("three Functions");
    copy.push("HEAD:refs/heads/main");
    gitea.addWebhook(repository, running.controller().webhookUri().resolve("gitea"), HOOK_SECRET,
        List.of("push", "pull_request", "pull_request_sync", "pull_request_label"));
    String token = gitea.createToken("previews-" + ns.name(), List.of("write:repository", "write:issue"));
    client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("forge")
        .endMetadata().withStringData(Map.of("token", token)).build()).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().withStringData(Map.of("token", HOOK_SECRET)).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: "
            + ns.name() + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 10m,"
            + " secretRef: {name: git}, webhook: {secretRef: {name: hook}},"
            + " commitStatus: {forge: gitea, secretRef: {name: forge}},"
            + " previews: {enabled: true, labels: [preview], maxActive: 2}}}",
        FunctionRepository.class)).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(functions(client, ns.name())).hasSize(3));
    await().atMost(WAIT).untilAsserted(() -> assertThat(infra(client, ns).getStatus().getPullRequestsListedAt())
        .isNotNull());

    // One pull request without the label, one with it; only the second is previewed.
    copy.write("functions/orders.yaml", function("orders", NODEJS22, "v2").toYaml()).commit("orders v2");
    copy.push("HEAD:refs/heads/plain");
    long plain = openPullRequest(repository, "plain", List.of());
    copy.git("reset", "--hard", "HEAD~1");
    String head = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("hello v2");
    copy.push("HEAD:refs/heads/feature");
    long labelled = openPullRequest(repository, "feature", List.of(label(repository, "preview")));
    String previewNamespace = ns.name() + "-pr-" + labelled;
    try {
      await().atMost(WAIT).untilAsserted(() -> {
        Preview preview = preview(client, ns, labelled);
        assertThat(preview.getPhase()).as(preview.getMessage()).isEqualTo("Running");
        assertThat(preview.getHeadSha()).isEqualTo(head);
        assertThat(preview.getNamespace()).isEqualTo(previewNamespace);
        assertThat(preview.getUrl()).isEqualTo("http://greeting." + previewNamespace + ".svc.cluster.local/");
      });
      Namespace namespace = client.namespaces().withName(previewNamespace).get();
      assertThat(namespace.getMetadata().getLabels()).containsEntry(Labels.PREVIEW_OF, ns.name() + ".infra")
          .containsEntry(Labels.PULL_REQUEST, Long.toString(labelled));
      assertThat(functions(client, previewNamespace)).extracting(f -> f.getMetadata().getName())
          .containsExactlyInAnyOrder("hello", "orders", "greeting");
      assertThat(infra(client, ns).getStatus().getPreviews()).extracting(Preview::getNumber)
          .as("the pull request without the label").containsExactly(labelled);
      assertThat(client.namespaces().withName(ns.name() + "-pr-" + plain).get()).isNull();
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(gitea.commitStatuses(repository, head)).first().satisfies(s -> {
          assertThat(s.get("status").asText()).isEqualTo("success");
          assertThat(s.get("target_url").asText()).isEqualTo(preview(client, ns, labelled).getUrl());
          assertThat(s.get("context").asText()).isEqualTo("gitfn/kind-a/" + ns.name() + "/infra-pr-" + labelled);
        });
        assertThat(comments(repository, labelled)).singleElement().asString().contains("**Running**")
            .contains(preview(client, ns, labelled).getUrl());
      });

      // A push to the pull request moves the preview, and the same comment says so.
      String second = copy.write("functions/hello.yaml", function("hello", NODEJS22, "v3").toYaml())
          .commit("hello v3");
      copy.push("HEAD:refs/heads/feature");
      await().atMost(WAIT).untilAsserted(() -> {
        Preview preview = preview(client, ns, labelled);
        assertThat(preview.getHeadSha()).isEqualTo(second);
        assertThat(preview.getPhase()).isEqualTo("Running");
        assertThat(comments(repository, labelled)).singleElement().asString().contains(second.substring(0, 7));
      });

      // Closing it removes the preview: its repository, its namespace, and the comment says so.
      gitea.call("PATCH", "/api/v1/repos/" + gitea.admin().username() + "/" + repository + "/pulls/" + labelled,
          Map.of("state", "closed"));
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
        assertThat(client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra-pr-" + labelled)
            .get()).isNull();
        Namespace gone = client.namespaces().withName(previewNamespace).get();
        assertThat(gone == null || gone.getMetadata().getDeletionTimestamp() != null).as("namespace deleted").isTrue();
        assertThat(infra(client, ns).getStatus().getPreviews()).isNull();
        assertThat(comments(repository, labelled)).singleElement().asString().contains("**Removed**")
            .contains("was closed");
      });
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  private static long openPullRequest(String repository, String branch, List<Long> labels) {
    return gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + repository + "/pulls",
        Map.of("head", branch, "base", "main", "title", "Change " + branch, "labels", labels)).get("number").asLong();
  }

  private static long label(String repository, String name) {
    return gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + repository + "/labels",
        Map.of("name", name, "color", "#00aabb")).get("id").asLong();
  }

  private static List<String> comments(String repository, long number) {
    List<String> bodies = new ArrayList<>();
    gitea.call("GET", "/api/v1/repos/" + gitea.admin().username() + "/" + repository + "/issues/" + number
        + "/comments", null).forEach(c -> bodies.add(c.get("body").asText()));
    return bodies;
  }

  private static Preview preview(KubernetesClient client, TestNamespace ns, long number) {
    List<Preview> previews = Objects.requireNonNullElse(infra(client, ns).getStatus().getPreviews(), List.of());
    return previews.stream().filter(p -> p.getNumber() == number).findFirst()
        .orElseThrow(() -> new AssertionError("no preview of #" + number + " in " + previews.size()));
  }

  private static List<Function> functions(KubernetesClient client, String namespace) {
    return client.resources(Function.class).inNamespace(namespace).list().getItems();
  }

  private static FunctionRepository infra(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }
}
