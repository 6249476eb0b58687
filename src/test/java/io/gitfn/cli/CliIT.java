package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.SecretRef;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.source.FolderTree;
import io.gitfn.source.Revision;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every cluster command of {@code gitfn}, run in-process with {@code --kubeconfig} against the real API server. */
@WithKubeApi
@ExtendWith(GitServers.class)
class CliIT {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static Path kubeconfig;

  @BeforeAll
  static void crds(KubeTestBed bed) {
    bed.installCrds();
    kubeconfig = bed.kubeconfig();
  }

  static CliRun gitfn(String... arguments) {
    return gitfnWith(kubeconfig, arguments);
  }

  static CliRun gitfnWith(Path kubeconfig, String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.add("--kubeconfig");
    all.add(kubeconfig.toString());
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void getRepositoriesPrintsATableAWideTableAndYaml(KubernetesClient client, TestNamespace ns) {
    createRepository(client, ns, "infra", "https://git.example/infra.git", readyStatus("main@sha1:" + "a".repeat(40)));
    createRepository(client, ns, "apps", "https://git.example/apps.git", null);

    CliRun table = gitfn("get", "repositories", "-n", ns.name());

    assertThat(table.exitCode()).as(table.err()).isZero();
    List<String> lines = table.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("NAME +URL +REVISION +READY +STATUS +AGE");
    assertThat(lines.get(1)).startsWith("apps ").contains("https://git.example/apps.git", "<none>", "Unknown");
    assertThat(lines.get(2)).startsWith("infra ").contains("main@sha1:aaaa", "True", "applied 2 Functions")
        .matches(".*\\d+s$");

    CliRun wide = gitfn("get", "fnrepo", "infra", "-n", ns.name(), "-o", "wide");
    assertThat(wide.out().lines().toList().get(0)).matches("NAME +URL +REVISION +READY +STATUS +AGE +REF +PATH +LAST-WEBHOOK");
    assertThat(wide.out()).contains("branch:main", "functions");

    CliRun yaml = gitfn("get", "repository", "infra", "-n", ns.name(), "-o", "yaml");
    assertThat(yaml.exitCode()).isZero();
    assertThat(yaml.out()).contains("kind: \"FunctionRepository\"", "lastAppliedRevision:").doesNotContain("managedFields");

    CliRun all = gitfn("get", "repositories", "-A");
    assertThat(all.out().lines().toList().get(0)).startsWith("NAMESPACE ");
    assertThat(all.out()).contains(ns.name() + " ");
  }

  @Test
  void getFunctionsShowsConditionsAndTheRepositoryAndJsonListsSeveral(KubernetesClient client, TestNamespace ns)
      throws Exception {
    Function hello = TestFunction.declared("hello").code("module.exports = {}")
        .metadataLabel("gitfn.io/repository", ns.name() + ".infra").build();
    Function created = client.resources(Function.class).inNamespace(ns.name()).resource(hello).create();
    created.setStatus(new FunctionStatus());
    created.getStatus().setConditions(List.of(new ConditionBuilder().withType("ConfigurationReady").withStatus("True")
        .withReason("Configured").withMessage("ok").withLastTransitionTime("2026-01-01T00:00:00Z").build()));
    client.resources(Function.class).inNamespace(ns.name()).resource(created).updateStatus();
    Function bye = TestFunction.declared("bye").runtime(FunctionRuntime.PYTHON312).code("def main(e, c): pass").build();
    client.resources(Function.class).inNamespace(ns.name()).resource(bye).create();

    CliRun table = gitfn("get", "fn", "-n", ns.name());

    assertThat(table.exitCode()).as(table.err()).isZero();
    List<String> lines = table.out().lines().toList();
    assertThat(lines.get(0)).matches("NAME +RUNTIME +CONFIGURED +BUILT +RUNNING +REPOSITORY +PINNED +ROLLED-BACK +AGE");
    assertThat(lines.get(1)).matches("bye +python312 +Unknown +Unknown +Unknown +<none> +<none> +<none> +\\d+s");
    assertThat(lines.get(2))
        .matches("hello +nodejs22 +True +Unknown +Unknown +" + ns.name() + "\\.infra +<none> +<none> +\\d+s");

    CliRun json = gitfn("get", "functions", "-n", ns.name(), "-o", "json");
    JsonNode list = new ObjectMapper().readTree(json.out());
    assertThat(list.get("kind").asText()).isEqualTo("List");
    assertThat(list.get("items")).hasSize(2);
  }

  @Test
  void aMissingObjectIsOneLineOnStderrAndExitCodeOne(TestNamespace ns) {
    for (String[] command : List.of(
        new String[] {"get", "repository", "nope"},
        new String[] {"history", "repository", "nope"},
        new String[] {"suspend", "repository", "nope"},
        new String[] {"resume", "repository", "nope"},
        new String[] {"reconcile", "repository", "nope"})) {
      List<String> withNamespace = new ArrayList<>(List.of(command));
      withNamespace.addAll(List.of("-n", ns.name()));

      CliRun run = gitfn(withNamespace.toArray(String[]::new));

      assertThat(run.exitCode()).as(String.join(" ", command)).isEqualTo(1);
      assertThat(run.err()).isEqualTo(
          "Error: functionrepository \"nope\" not found in namespace \"" + ns.name() + "\"\n");
      assertThat(run.out()).isEmpty();
    }
    for (String[] command : List.of(new String[] {"get", "function", "nope"},
        new String[] {"reconcile", "function", "nope"})) {
      CliRun function = gitfn(command[0], command[1], command[2], "-n", ns.name());
      assertThat(function.exitCode()).as(String.join(" ", command)).isEqualTo(1);
      assertThat(function.err()).isEqualTo(
          "Error: function \"nope\" not found in namespace \"" + ns.name() + "\"\n");
    }
  }

  @Test
  void reconcileFunctionAsksTheControllerThroughTheRequestedAtAnnotation(KubernetesClient client,
      TestNamespace ns) {
    client.resource(function("hello").build()).inNamespace(ns.name()).create();

    CliRun run = gitfn("reconcile", "function", "hello", "-n", ns.name());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("► annotating Function " + ns.name() + "/hello\n");
    String requested = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get()
        .getMetadata().getAnnotations().get("gitfn.io/requested-at");
    assertThat(java.time.Instant.parse(requested)).isCloseTo(java.time.Instant.now(),
        org.assertj.core.api.Assertions.within(1, java.time.temporal.ChronoUnit.MINUTES));
  }

  @Test
  void anEmptyNamespaceSaysSoOnStderr(TestNamespace ns) {
    CliRun run = gitfn("get", "repositories", "-n", ns.name());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("No resources found in " + ns.name() + " namespace.\n");
  }

  @Test
  void historyIsATableNewestFirstOrYaml(KubernetesClient client, TestNamespace ns) {
    FunctionRepositoryStatus status = readyStatus("main@sha1:" + "b".repeat(40));
    SyncRecord newest = record("main@sha1:" + "b".repeat(40), "2026-03-01T11:00:00Z", "Applied", 0, 1, 1);
    newest.setAuthor("Ada");
    newest.setMessage("Retire the old greeting, which nobody reads any more, and say hello instead");
    status.setHistory(List.of(newest,
        record("main@sha1:" + "a".repeat(40), "2026-03-01T10:00:00Z", "Applied", 2, 0, 0)));
    createRepository(client, ns, "infra", "https://git.example/infra.git", status);

    CliRun table = gitfn("history", "repository", "infra", "-n", ns.name());

    assertThat(table.exitCode()).as(table.err()).isZero();
    assertThat(table.out()).isEqualTo("""
        REVISION                                             TIME                   OUTCOME   CREATED   UPDATED   DELETED   AUTHOR   MESSAGE
        main@sha1:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb   2026-03-01T11:00:00Z   Applied   0         1         1         Ada      Retire the old greeting, which nobody reads any m…
        main@sha1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa   2026-03-01T10:00:00Z   Applied   2         0         0         <none>   <none>
        """);

    CliRun yaml = gitfn("history", "repository", "infra", "-n", ns.name(), "-o", "yaml");
    assertThat(yaml.out()).startsWith("- revision: \"main@sha1:bbbb");
  }

  @Test
  void aFunctionsHistoryShowsItsRevisionsAndImages(KubernetesClient client, TestNamespace ns) {
    apply(client, ns, function("hello").build(), null);
    Function hello = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    FunctionStatus status = new FunctionStatus();
    status.setHistory(List.of(
        entry("main@sha1:" + "b".repeat(40), "2026-03-01T11:00:00Z", "Reused", "k1", "registry.local/shop-hello:k1"),
        entry("main@sha1:" + "a".repeat(40), "2026-03-01T10:00:00Z", "Succeeded", "k1", "registry.local/shop-hello:k1")));
    status.setImage("registry.local/shop-hello:k1");
    hello.setStatus(status);
    client.resource(hello).updateStatus();

    CliRun table = gitfn("history", "function", "hello", "-n", ns.name());

    assertThat(table.exitCode()).as(table.err()).isZero();
    assertThat(table.out().lines()).containsExactly(
        "REVISION                                             TIME                   OUTCOME           KEY   IMAGE",
        "main@sha1:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb   2026-03-01T11:00:00Z   Reused, serving   k1    registry.local/shop-hello:k1",
        "main@sha1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa   2026-03-01T10:00:00Z   Succeeded         k1    registry.local/shop-hello:k1");
    assertThat(gitfn("history", "function", "nope", "-n", ns.name()).err())
        .isEqualTo("Error: function \"nope\" not found in namespace \"" + ns.name() + "\"\n");
  }

  private static FunctionHistoryEntry entry(String revision, String time, String outcome, String key, String image) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision(revision);
    entry.setTime(time);
    entry.setOutcome(outcome);
    entry.setContentKey(key);
    entry.setImage(image);
    return entry;
  }

  @Test
  void suspendAndResumeSetSpecSuspendAndResumeRequestsAReconcile(KubernetesClient client, TestNamespace ns) {
    createRepository(client, ns, "infra", "https://git.example/infra.git", null);

    CliRun suspend = gitfn("suspend", "repository", "infra", "-n", ns.name());

    assertThat(suspend.exitCode()).as(suspend.err()).isZero();
    assertThat(suspend.out()).isEqualTo("► suspending FunctionRepository " + ns.name() + "/infra\n"
        + "✔ FunctionRepository suspended\n");
    assertThat(repository(client, ns).getSpec().getSuspend()).isTrue();

    CliRun reconcile = gitfn("reconcile", "repository", "infra", "-n", ns.name());
    assertThat(reconcile.exitCode()).isEqualTo(1);
    assertThat(reconcile.err()).contains("is suspended; run gitfn resume repository infra");

    CliRun resume = gitfn("resume", "repository", "infra", "-n", ns.name());

    assertThat(resume.exitCode()).as(resume.err()).isZero();
    assertThat(resume.out()).isEqualTo("► resuming FunctionRepository " + ns.name() + "/infra\n");
    FunctionRepository resumed = repository(client, ns);
    assertThat(resumed.getSpec().getSuspend()).isFalse();
    assertThat(resumed.getMetadata().getAnnotations()).containsKey(Annotations.REQUESTED_AT);
  }

  @Test
  void reconcileAndResumeWaitForTheControllerToApplyTheRevision(KubernetesClient client, TestNamespace ns,
      KubeTestBed bed, GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("functions/hello.yaml", function("hello").toYaml()).commit("hello");
    copy.push();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
    FunctionRepository infra = newRepository(ns, "infra", http.url(repository.name()));
    infra.getSpec().setSecretRef(new SecretRef());
    infra.getSpec().getSecretRef().setName("git");
    client.resource(infra).create();

    try (KubernetesClient controllerClient = bed.newClient();
        Controller controller = Controller.start(controllerClient,
            SourceSettings.defaults(Files.createTempDirectory("gitfn-cli-mirrors")), WebhookSettings.defaults(),
            ControllerSettings.defaults(), BuildSettings.defaults(),
          WorkloadSettings.defaults(), "127.0.0.1", 0)) {

      // Only an API server runs here, so the Functions never run: wait until the revision is applied.
      CliRun reconcile = gitfn("reconcile", "repository", "infra", "-n", ns.name(), "--wait=applied", "--timeout",
          "60s");

      assertThat(reconcile.exitCode()).as(reconcile.out() + reconcile.err()).isZero();
      assertThat(reconcile.out()).isEqualTo("► annotating FunctionRepository " + ns.name() + "/infra\n"
          + "◎ waiting for reconciliation\n"
          + "✔ applied revision main@sha1:" + first + "\n");
      assertThat(client.resources(Function.class).inNamespace(ns.name()).withName("hello").get()).isNotNull();

      assertThat(gitfn("suspend", "repository", "infra", "-n", ns.name()).exitCode()).isZero();
      String second = copy.write("functions/bye.yaml", function("bye").toYaml()).commit("bye");
      copy.push();

      CliRun resume = gitfn("resume", "repository", "infra", "-n", ns.name(), "--wait=applied", "--timeout", "60s");

      assertThat(resume.exitCode()).as(resume.out() + resume.err()).isZero();
      // A request counts as handled only after a Git check that started after it, so the ✔ names the new commit.
      assertThat(resume.out()).isEqualTo("► resuming FunctionRepository " + ns.name() + "/infra\n"
          + "◎ waiting for reconciliation\n✔ applied revision main@sha1:" + second + "\n");
      assertThat(repository(client, ns).getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + second);
    }
  }

  @Test
  void theNamespaceDefaultsToTheKubeconfigContexts(KubernetesClient client, TestNamespace ns, @TempDir Path dir)
      throws Exception {
    createRepository(client, ns, "infra", "https://git.example/infra.git", null);
    Path own = dir.resolve("kubeconfig");
    Files.writeString(own, Files.readString(kubeconfig).replace("namespace: default", "namespace: " + ns.name()));

    CliRun run = gitfnWith(own, "get", "repositories");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("infra ");
  }

  @Test
  void diffDryRunsTheFolderAndShowsWhatWouldChange(KubernetesClient client, TestNamespace ns, @TempDir Path folder)
      throws Exception {
    createRepository(client, ns, "infra", "https://git.example/infra.git", null);
    String owner = ns.name() + ".infra";
    apply(client, ns, function("hello").env("VERSION", "v1").build(), owner);
    apply(client, ns, function("gone").build(), owner);
    Files.writeString(folder.resolve("hello.yaml"), function("hello").env("VERSION", "v2").toYaml());
    Files.writeString(folder.resolve("fresh.yaml"), function("fresh").toYaml());

    CliRun diff = gitfn("diff", folder.toString(), "-n", ns.name(), "--repository", "infra");

    assertThat(diff.exitCode()).as(diff.err()).isEqualTo(1);
    assertThat(diff.out()).contains("+ new Function " + ns.name() + "/fresh\n",
        "~ changed Function " + ns.name() + "/hello\n@@ ", "-    value: \"v1\"\n+    value: \"v2\"\n",
        "- removed Function " + ns.name() + "/gone\n");
    assertThat(client.resources(Function.class).inNamespace(ns.name()).withName("hello").get().getSpec().getEnv().get(0)
        .getValue()).as("a dry run writes nothing").isEqualTo("v1");
    assertThat(client.resources(Function.class).inNamespace(ns.name()).withName("fresh").get()).isNull();

    // What the controller would apply: the folder as the manifest reader reads it.
    for (Function function : new ManifestReader(ManifestOptions.defaults()).read(new FolderTree(folder), "", List.of())
        .functions()) {
      apply(client, ns, function, owner);
    }
    client.resources(Function.class).inNamespace(ns.name()).withName("gone").delete();
    await().atMost(Duration.ofSeconds(10))
        .until(() -> client.resources(Function.class).inNamespace(ns.name()).withName("gone").get() == null);

    CliRun same = gitfn("diff", folder.toString(), "-n", ns.name(), "--repository", "infra");

    assertThat(same.exitCode()).as(same.out() + same.err()).isZero();
    assertThat(same.out()).isEmpty();

    // A runtime FunctionRuntime cannot hold, so the file is edited as text.
    Files.writeString(folder.resolve("bad.yaml"), function("bad").toYaml().replace("nodejs22", "cobol85"));
    CliRun invalid = gitfn("diff", folder.toString(), "-n", ns.name());
    assertThat(invalid.exitCode()).isEqualTo(2);
    assertThat(invalid.err()).contains("bad.yaml:", "cobol85").endsWith("Error: 1 error(s) in " + folder + "\n");
  }

  @Test
  void diffComparesTheFoldersConfigMapsTooAndFindsNothingOnceTheControllerAppliedThem(KubernetesClient client,
      TestNamespace ns, KubeTestBed bed, GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("functions/settings.yaml", configMap("greeting-settings", "greeting: Hallo"))
        .write("functions/old.yaml", configMap("old-settings", "greeting: Moin"))
        .write("functions/greeting.yaml", function("greeting")
            .envFromConfigMap("GREETING", "greeting-settings", "greeting").toYaml())
        .write("functions/route.yaml", ingress("/greeting"))
        .commit("greeting");
    copy.push();
    String folder = copy.directory().toString();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .addToStringData("username", http.credentials().username())
        .addToStringData("password", http.credentials().password()).build()).create();
    FunctionRepository infra = newRepository(ns, "infra", http.url(repository.name()));
    infra.getSpec().setSecretRef(new SecretRef());
    infra.getSpec().getSecretRef().setName("git");
    client.resource(infra).create();

    CliRun fresh = gitfn("diff", folder, "--path", "functions", "-n", ns.name(), "--repository", "infra");

    assertThat(fresh.exitCode()).as(fresh.err()).isEqualTo(1);
    assertThat(fresh.out()).as("ConfigMaps first, as the controller writes them before their readers")
        .containsSubsequence("+ new ConfigMap " + ns.name() + "/greeting-settings\n", "+data:\n+  greeting: \"Hallo\"\n",
            "+ new ConfigMap " + ns.name() + "/old-settings\n", "+ new Function " + ns.name() + "/greeting\n",
            "+    gitfn.io/config-maps-digest: \"sha256:", "+ new Ingress " + ns.name() + "/greeting\n",
            "+        path: \"/greeting\"");
    assertThat(client.configMaps().inNamespace(ns.name()).withName("greeting-settings").get())
        .as("a dry run writes nothing").isNull();

    try (KubernetesClient controllerClient = bed.newClient();
        Controller controller = Controller.start(controllerClient,
            SourceSettings.defaults(Files.createTempDirectory("gitfn-cli-mirrors")), WebhookSettings.defaults(),
            ControllerSettings.defaults(), BuildSettings.defaults(), WorkloadSettings.defaults(), "127.0.0.1", 0)) {
      CliRun applied = gitfn("reconcile", "repository", "infra", "-n", ns.name(), "--wait=applied", "--timeout",
          "60s");
      assertThat(applied.exitCode()).as(applied.out() + applied.err()).isZero();
    }

    CliRun same = gitfn("diff", folder, "--path", "functions", "-n", ns.name(), "--repository", "infra");

    assertThat(same.exitCode()).as(same.out() + same.err()).isZero();
    assertThat(same.out()).isEmpty();

    copy.write("functions/settings.yaml", configMap("greeting-settings", "greeting: Servus"))
        .write("functions/route.yaml", ingress("/hello"));
    Files.delete(copy.directory().resolve("functions/old.yaml"));

    CliRun edited = gitfn("diff", folder, "--path", "functions", "-n", ns.name(), "--repository", "infra");

    assertThat(edited.exitCode()).as(edited.err()).isEqualTo(1);
    assertThat(edited.out()).containsSubsequence("~ changed ConfigMap " + ns.name() + "/greeting-settings\n",
        "-  greeting: \"Hallo\"\n+  greeting: \"Servus\"\n",
        "- removed ConfigMap " + ns.name() + "/old-settings\n",
        "~ changed Function " + ns.name() + "/greeting\n", "-    gitfn.io/config-maps-digest: \"sha256:",
        "+    gitfn.io/config-maps-digest: \"sha256:", "~ changed Ingress " + ns.name() + "/greeting\n",
        "-        path: \"/greeting\"\n+        path: \"/hello\"\n");

    Files.delete(copy.directory().resolve("functions/route.yaml"));

    CliRun unrouted = gitfn("diff", folder, "--path", "functions", "-n", ns.name(), "--repository", "infra");

    assertThat(unrouted.out()).contains("- removed Ingress " + ns.name() + "/greeting\n");

    client.configMaps().inNamespace(ns.name()).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
        .withNewMetadata().withName("handmade").endMetadata().addToData("k", "v").build()).create();
    copy.write("functions/handmade.yaml", configMap("handmade", "k: w"));

    CliRun taken = gitfn("diff", folder, "--path", "functions", "-n", ns.name(), "--repository", "infra");

    assertThat(taken.exitCode()).isEqualTo(2);
    assertThat(taken.out()).isEmpty();
    assertThat(taken.err()).contains("ConfigMap " + ns.name() + "/handmade exists and was not made by a"
        + " FunctionRepository; the controller does not take it over and would refuse the revision")
        .endsWith("Error: 1 ConfigMap(s) would make the controller refuse the folder; nothing would be applied\n");
  }

  private static String ingress(String path) {
    return """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata: {name: greeting}
        spec:
          rules:
            - http:
                paths:
                  - {path: %s, pathType: Prefix, backend: {service: {name: greeting, port: {number: 80}}}}
        """.formatted(path);
  }

  private static String configMap(String name, String data) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {" + data + "}\n";
  }

  private static void apply(KubernetesClient client, TestNamespace ns, Function function, String owner) {
    client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(Function.class))
        .inNamespace(ns.name())
        .resource(FunctionSync.appliedObject(function, ns.name(), owner, new Revision("main", "a".repeat(40))))
        .fieldManager(FieldManagers.SYNC).forceConflicts().serverSideApply();
  }

  private static TestFunction function(String name) {
    return TestFunction.declared(name).code("module.exports = { main: () => \"" + name + "\" };\n");
  }

  private static FunctionRepository newRepository(TestNamespace ns, String name, String url) {
    return SERIALIZATION.unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: %s, namespace: %s}
        spec: {url: "%s", ref: {branch: main}, path: functions, interval: 1h}
        """.formatted(name, ns.name(), url), FunctionRepository.class);
  }

  private static void createRepository(KubernetesClient client, TestNamespace ns, String name, String url,
      FunctionRepositoryStatus status) {
    FunctionRepository created = client.resource(newRepository(ns, name, url)).create();
    if (status != null) {
      created.setStatus(status);
      client.resource(created).updateStatus();
    }
  }

  private static FunctionRepository repository(KubernetesClient client, TestNamespace ns) {
    return client.resources(FunctionRepository.class).inNamespace(ns.name()).withName("infra").get();
  }

  private static FunctionRepositoryStatus readyStatus(String revision) {
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastAppliedRevision(revision);
    status.setLastFetchedRevision(revision);
    status.setConditions(List.of(new ConditionBuilder().withType("Ready").withStatus("True").withReason("Applied")
        .withMessage("applied 2 Functions").withLastTransitionTime("2026-01-01T00:00:00Z").build()));
    return status;
  }

  private static SyncRecord record(String revision, String time, String outcome, int created, int updated,
      int deleted) {
    SyncRecord record = new SyncRecord();
    record.setRevision(revision);
    record.setTime(time);
    record.setOutcome(outcome);
    record.setCreated(created);
    record.setUpdated(updated);
    record.setDeleted(deleted);
    return record;
  }
}
