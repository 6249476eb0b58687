package io.gitfn.reconcile;

import static io.gitfn.api.function.FunctionRuntime.NODEJS22;
import static io.gitfn.reconcile.Repositories.function;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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
  private static final ObjectMapper JSON = new ObjectMapper();
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
    Infra infra = infra(client, ns, home, "{enabled: true, labels: [preview], maxActive: 2}");
    String repository = infra.repository();
    WorkingCopy copy = infra.copy();

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
        JsonNode status = newestStatus(repository, head);
        assertThat(status.get("status").asText()).isEqualTo("success");
        assertThat(status.get("target_url").asText()).isEqualTo(preview(client, ns, labelled).getUrl());
        assertThat(status.get("context").asText()).isEqualTo("gitfn/kind-a/" + ns.name() + "/infra-pr-" + labelled);
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
        JsonNode removed = newestStatus(repository, second);
        assertThat(removed.get("context").asText()).isEqualTo("gitfn/kind-a/" + ns.name() + "/infra-pr-" + labelled);
        assertThat(removed.get("description").asText()).isEqualTo("removed: pull request #" + labelled
            + " was closed");
      });
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  @Test
  void aPreviewsIngressAnswersForThePreviewsHostAndProductionsKeepsItsOwn(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    Infra infra = infra(client, ns, home, "{enabled: true, host: '{function}-pr-{number}.preview.example.com'}");
    infra.copy().write("functions/route.yaml", """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: hello
        spec:
          tls:
            - hosts: [hello.example.com]
              secretName: hello-tls
          rules:
            - host: hello.example.com
              http:
                paths:
                  - path: /hello
                    pathType: Prefix
                    backend: {service: {name: hello, port: {number: 80}}}
        """).commit("a route to hello");
    infra.copy().push("HEAD:refs/heads/main");
    await().atMost(WAIT).untilAsserted(() -> assertThat(client.network().v1().ingresses().inNamespace(ns.name())
        .withName("hello").get()).isNotNull());
    infra.copy().write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("hello v2");
    infra.copy().push("HEAD:refs/heads/routed");
    String previewNamespace = ns.name() + "-pr-1";
    try {
      assertThat(openPullRequest(infra.repository(), "routed", List.of())).isEqualTo(1);

      await().atMost(WAIT).untilAsserted(() -> {
        Preview preview = preview(client, ns, 1);
        assertThat(preview.getPhase()).as(preview.getMessage()).isEqualTo("Running");
        assertThat(preview.getUrl()).isEqualTo("http://hello-pr-1.preview.example.com/hello");
      });
      Ingress route = client.network().v1().ingresses().inNamespace(previewNamespace).withName("hello").get();
      assertThat(route.getSpec().getRules()).singleElement().satisfies(rule ->
          assertThat(rule.getHost()).isEqualTo("hello-pr-1.preview.example.com"));
      assertThat(route.getSpec().getTls()).as("production's certificate names production's host").isNullOrEmpty();
      assertThat(client.network().v1().ingresses().inNamespace(ns.name()).withName("hello").get().getSpec()
          .getRules().get(0).getHost()).isEqualTo("hello.example.com");
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  @Test
  void aPreviewIsAppliedAsTheRepositorysServiceAccountWithTheRightsItHasInItsOwnNamespace(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    client.serviceAccounts().inNamespace(ns.name()).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("deployer").endMetadata().build()).create();
    client.rbac().roles().inNamespace(ns.name()).resource(new RoleBuilder().withNewMetadata().withName("deployer")
        .endMetadata().addNewRule().withApiGroups("serverless.kyma-project.io").withResources("functions")
        .withVerbs("get", "list", "create", "patch", "delete").endRule().addNewRule().withApiGroups("")
        .withResources("configmaps").withVerbs("get", "create", "patch", "delete").endRule().build()).create();
    client.rbac().roleBindings().inNamespace(ns.name()).resource(new RoleBindingBuilder().withNewMetadata()
        .withName("deployer").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "deployer")
        .addNewSubject().withKind("ServiceAccount").withName("deployer").withNamespace(ns.name()).endSubject()
        .build()).create();
    // A binding of another subject stays where it is.
    client.rbac().roleBindings().inNamespace(ns.name()).resource(new RoleBindingBuilder().withNewMetadata()
        .withName("someone-else").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "deployer")
        .addNewSubject().withKind("ServiceAccount").withName("other").withNamespace(ns.name()).endSubject()
        .build()).create();
    Infra infra = infra(client, ns, home, "{enabled: true}", "deployer");
    infra.copy().write("functions/hello.yaml", function("hello", NODEJS22, "v2").toYaml()).commit("hello v2");
    infra.copy().push("HEAD:refs/heads/tenant");
    String previewNamespace = ns.name() + "-pr-1";
    try {
      assertThat(openPullRequest(infra.repository(), "tenant", List.of())).isEqualTo(1);

      await().atMost(WAIT).untilAsserted(() -> {
        Preview preview = preview(client, ns, 1);
        assertThat(preview.getPhase()).as(preview.getMessage()).isEqualTo("Running");
      });
      assertThat(client.rbac().roleBindings().inNamespace(previewNamespace).list().getItems())
          .singleElement().satisfies(binding -> {
            assertThat(binding.getMetadata().getName()).isEqualTo("deployer");
            assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
              assertThat(subject.getName()).isEqualTo("deployer");
              assertThat(subject.getNamespace()).isEqualTo(ns.name());
            });
          });
      assertThat(client.rbac().roles().inNamespace(previewNamespace).withName("deployer").get().getRules())
          .isEqualTo(client.rbac().roles().inNamespace(ns.name()).withName("deployer").get().getRules());
      assertThat(functions(client, previewNamespace)).hasSize(3).allSatisfy(fn -> assertThat(fn.getMetadata()
          .getManagedFields()).anySatisfy(field -> assertThat(field.getManager()).isEqualTo("gitfn")));
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  @Test
  void aMergedPreviewDeploysToItsBaseWithNoBuildJob(KubernetesClient client, TestNamespace ns, @TempDir Path home)
      throws Exception {
    Infra infra = infra(client, ns, home, "{enabled: true}");
    String head = infra.copy().write("functions/orders.yaml", function("orders", NODEJS22, "v2")
        .dependencies("{\"name\": \"orders\", \"dependencies\": {\"left-pad\": \"1.3.0\"}}").toYaml())
        .commit("orders with a dependency");
    infra.copy().push("HEAD:refs/heads/deps");
    // A new repository's first pull request is number 1: its namespace is watched before it exists.
    String previewNamespace = ns.name() + "-pr-1";
    try (JobLog preview = JobLog.watch(client, previewNamespace)) {
      assertThat(openPullRequest(infra.repository(), "deps", List.of())).isEqualTo(1);
      await().atMost(WAIT).untilAsserted(() -> {
        Preview running = preview(client, ns, 1);
        assertThat(running.getPhase()).as(running.getMessage()).isEqualTo("Running");
        assertThat(running.getHeadSha()).isEqualTo(head);
      });
      assertThat(preview.uids()).as("build Jobs of the preview, the one Function whose dependencies changed: %s",
          preview.names()).hasSize(1);
    }

    try (JobLog base = JobLog.watch(client, ns)) {
      gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository() + "/pulls/1/merge",
          Map.of("Do", "merge"));
      String merged = gitea.call("GET", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository()
          + "/branches/main", null).get("commit").get("id").asText();
      await().atMost(WAIT).untilAsserted(() -> {
        FunctionRepository applied = infra(client, ns);
        assertThat(applied.getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + merged);
        assertThat(applied.getStatus().getConditions()).anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("Ready");
          assertThat(c.getStatus()).isEqualTo("True");
        });
      });
      assertThat(base.uids()).as("build Jobs on merge").isEmpty();
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
        assertThat(infra(client, ns).getStatus().getPreviews()).isNull();
        Namespace gone = client.namespaces().withName(previewNamespace).get();
        assertThat(gone == null || gone.getMetadata().getDeletionTimestamp() != null).as("namespace deleted").isTrue();
      });
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  @Test
  void aPullRequestFromAForkGetsAPreviewOnlyOnceAMaintainerLabelsIt(KubernetesClient client, TestNamespace ns,
      @TempDir Path home) throws Exception {
    Infra infra = infra(client, ns, home, "{enabled: true, labels: [preview]}");
    String owner = "forks-" + ns.name();
    gitea.call("POST", "/api/v1/orgs", Map.of("username", owner));
    gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository() + "/forks",
        Map.of("organization", owner));
    String forkUrl = gitea.baseUrl().resolve("/" + owner + "/" + infra.repository() + ".git").toString();
    String head = infra.copy().write("functions/hello.yaml", function("hello", NODEJS22, "from a fork").toYaml())
        .commit("hello from a fork");
    infra.copy().git("push", forkUrl, "HEAD:refs/heads/fork-change");
    long number = gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository()
        + "/pulls", Map.of("head", owner + ":fork-change", "base", "main", "title", "From a fork")).get("number")
        .asLong();
    String previewNamespace = ns.name() + "-pr-" + number;
    try {
      await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
        assertThat(infra(client, ns).getStatus().getPreviews()).as("before the label").isNull();
        assertThat(client.namespaces().withName(previewNamespace).get()).isNull();
      });

      gitea.call("POST", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository() + "/issues/"
          + number + "/labels", Map.of("labels", List.of(label(infra.repository(), "preview"))));

      await().atMost(WAIT).untilAsserted(() -> {
        Preview preview = preview(client, ns, number);
        assertThat(preview.getPhase()).as(preview.getMessage()).isEqualTo("Running");
        assertThat(preview.getHeadSha()).isEqualTo(head);
      });
      assertThat(client.resources(Function.class).inNamespace(previewNamespace).withName("hello").get().getSpec()
          .getSource().getInline().getSource()).contains("from a fork");
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  @Test
  void aFloodOfPullRequestWebhooksMakesNothingUnsignedAndAtMostMaxActivePreviewsSigned(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    Infra infra = infra(client, ns, home, "{enabled: true, labels: [preview], maxActive: 2}");
    String cloneUrl = gitea.baseUrl().resolve("/" + gitea.admin().username() + "/" + infra.repository() + ".git")
        .toString();
    HttpClient http = HttpClient.newHttpClient();
    URI hook = running.controller().webhookUri().resolve("gitea");
    List<Integer> unsigned = new ArrayList<>();
    List<Integer> signed = new ArrayList<>();
    AtomicInteger mostPreviews = new AtomicInteger();
    for (int number = 1000; number < 2000; number++) {
      byte[] body = pullRequestOpened(number, cloneUrl);
      unsigned.add(deliver(http, hook, body, "unsigned-" + number, null));
      signed.add(deliver(http, hook, body, "signed-" + number, HOOK_SECRET));
      if (number % 50 == 0) {
        mostPreviews.accumulateAndGet(livePreviews(client, ns), Math::max);
      }
    }
    await().atMost(WAIT).untilAsserted(() -> assertThat(Objects.requireNonNullElse(
        infra(client, ns).getStatus().getPreviews(), List.<Preview>of())).filteredOn(p -> !"Stopped".equals(
            p.getPhase())).extracting(Preview::getNumber).containsExactlyInAnyOrder(1999L, 1998L));
    mostPreviews.accumulateAndGet(livePreviews(client, ns), Math::max);

    assertThat(unsigned).as("1,000 unsigned deliveries").hasSize(1000).containsOnly(401);
    assertThat(signed).as("1,000 signed deliveries").hasSize(1000).containsOnly(200);
    assertThat(mostPreviews.get()).as("preview repositories at once").isLessThanOrEqualTo(2);
    assertThat(gitea.call("GET", "/api/v1/repos/" + gitea.admin().username() + "/" + infra.repository()
        + "/issues/comments", null)).as("comments on the repository's pull requests").isEmpty();
    client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").delete();
    for (long number : List.of(1998L, 1999L)) {
      client.namespaces().withName(ns.name() + "-pr-" + number).delete();
    }
  }

  /** A Gitea pull-request webhook's body, opened, for {@code number} of the repository at {@code cloneUrl}. */
  private static byte[] pullRequestOpened(long number, String cloneUrl) throws Exception {
    ObjectNode body;
    try (var sample = PreviewsIT.class.getResourceAsStream("/io/gitfn/trigger/webhook/gitea-pull-request.json")) {
      body = (ObjectNode) JSON.readTree(sample);
    }
    body.put("action", "opened");
    body.put("number", number);
    ObjectNode pullRequest = (ObjectNode) body.get("pull_request");
    pullRequest.put("number", number);
    ((ObjectNode) pullRequest.get("head")).put("sha", String.format("%040x", number));
    ObjectNode repository = (ObjectNode) body.get("repository");
    repository.put("clone_url", cloneUrl);
    repository.put("html_url", cloneUrl.replaceAll("\\.git$", ""));
    repository.remove("ssh_url");
    return JSON.writeValueAsBytes(body);
  }

  private static int deliver(HttpClient http, URI hook, byte[] body, String id, String secret) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(hook).POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Content-Type", "application/json").header("X-Gitea-Event", "pull_request")
        .header("X-Gitea-Event-Type", "pull_request").header("X-Gitea-Delivery", id)
        .timeout(Duration.ofSeconds(10));
    if (secret != null) {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      request.header("X-Gitea-Signature", HexFormat.of().formatHex(mac.doFinal(body)));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** The preview repositories of infra that are not on their way out. */
  private static int livePreviews(KubernetesClient client, TestNamespace ns) {
    return (int) client.resources(FunctionRepository.class).inNamespace(ns.name())
        .withLabel(Labels.PREVIEW_OF, ns.name() + ".infra").list().getItems().stream()
        .filter(r -> r.getMetadata().getDeletionTimestamp() == null).count();
  }

  /** A Gitea repository of three Functions on main, its webhook, and FunctionRepository infra with {@code previews}. */
  private record Infra(String repository, WorkingCopy copy) {}

  private static Infra infra(KubernetesClient client, TestNamespace ns, Path home, String previews)
      throws Exception {
    return infra(client, ns, home, previews, null);
  }

  private static Infra infra(KubernetesClient client, TestNamespace ns, Path home, String previews,
      String serviceAccount) throws Exception {
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
            + " commitStatus: {forge: gitea, secretRef: {name: forge}}, previews: " + previews
            + (serviceAccount == null ? "" : ", serviceAccountName: " + serviceAccount) + "}}",
        FunctionRepository.class)).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(functions(client, ns.name())).hasSize(3));
    await().atMost(WAIT).untilAsserted(() -> assertThat(infra(client, ns).getStatus().getPullRequestsListedAt())
        .isNotNull());
    return new Infra(repository, copy);
  }

  /**
   * The newest commit status of {@code sha}: Gitea lists newest first only to the second, so two statuses of one
   * second are told apart by their ids.
   */
  private static JsonNode newestStatus(String repository, String sha) {
    return gitea.commitStatuses(repository, sha).stream().max(java.util.Comparator.comparingLong(s -> s.get("id")
        .asLong())).orElseThrow(() -> new AssertionError("no commit status on " + sha));
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
