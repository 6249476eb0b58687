package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.BuildlessSource;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.ServiceLoad;
import io.gitfn.testbed.realnode.WithRealNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
 * Buildless Functions on a real node: no build Job, no image of their own. The Pods run the node's base images,
 * their init container installs gitfn's runtime packages and the Function's dependencies from the package mirrors
 * on the host (through the package-registry Secret), and the Function answers through its Service.
 *
 * <p>The controller keeps installed dependencies in a dependency cache: a claim in each test's namespace, bound to a
 * local volume on the node whose folder root owns, so the kubelet hands it to the Pods' group ({@code fsGroup}). The
 * first Pod of a key installs and keeps; a handler edit and a revert copy from it. (The chart's real-node test runs
 * a buildless Function without a cache.)
 */
@WithRealNode
class RealNodeBuildlessE2E {

  private static final String CACHE_CLAIM = "gitfn-dependencies";
  private static NodeGitfn gitfn;
  private static RealNode node;

  @BeforeAll
  static void startController(RealNode realNode) throws Exception {
    node = realNode;
    gitfn = NodeGitfn.start(node, builds -> builds.withDependencyCacheClaim(CACHE_CLAIM));
  }

  @AfterAll
  static void stopController() throws Exception {
    gitfn.close();
  }

  @Test
  void aBuildlessNodeFunctionInstallsItsNpmDependencyAtStartAndAnswersThroughItsService(KubernetesClient client,
      TestNamespace ns) {
    prepare(client, ns);
    client.resource(buildless(TestFunction.inline().named("node-hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.NODEJS22)
        .code("const ms = require('ms');\nmodule.exports = { main: () => 'node says ' + ms(60000) };\n")
        .dependencies("{\"name\": \"node-hello\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")))
        .create();

    assertAnswersBuildless(client, ns, "node-hello", "node says 1m");
    assertThat(installLogs(client, ns, "node-hello")).as("the install of the first Pod")
        .contains("are not in the cache: installing").contains("kept dependencies");
  }

  @Test
  void aBuildlessPythonFunctionInstallsItsPipDependencyAtStartAndAnswersThroughItsService(KubernetesClient client,
      TestNamespace ns) {
    prepare(client, ns);
    client.resource(buildless(TestFunction.inline().named("py-hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.PYTHON312)
        .code("import six\n\ndef main(event, context):\n    return 'python says ' + six.ensure_text(b'ok')\n")
        .dependencies("six==1.17.0\n")))
        .create();

    assertAnswersBuildless(client, ns, "py-hello", "python says ok");
  }

  @Test
  void anEditAndARevertUnderLoadFailNoRequestAndMakeNoJob(KubernetesClient client, TestNamespace ns)
      throws Exception {
    prepare(client, ns);
    client.resource(hello(ns, "v1")).create();
    assertAnswersBuildless(client, ns, "hello", "hello v1");
    String clusterIp = client.services().inNamespace(ns.name()).withName("hello").get().getSpec().getClusterIP();

    try (ServiceLoad load = ServiceLoad.start(URI.create("http://" + clusterIp + "/"), 2)) {
      edit(client, ns, "v2");
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("hello v2"));
      edit(client, ns, "v1");
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("hello v1"));
      load.stopAfterAnswers(20);

      assertThat(load.requests()).as("requests sent during the edit and the revert").isGreaterThan(100);
      assertThat(load.failures()).as("requests that failed during the edit and the revert").isEmpty();
      assertThat(load.answers()).as("answers in the order they came").containsSubsequence("hello v1", "hello v2",
          "hello v1");
    }
    assertThat(installLogs(client, ns, "hello")).as("the install of the reverted version's Pod")
        .contains("from the cache, nothing to install").doesNotContain("installing");
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).as("build Jobs").isEmpty();
    assertThat(sources(client, ns, "hello")).as("one source ConfigMap per version, none for the revert").hasSize(2);
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
    assertThat(fn.getStatus().getHistory().get(0).getOutcome()).isEqualTo("Reused");
  }

  @Test
  void aDependencyThatCannotBeInstalledSaysSoInRunningWhileTheOldVersionServes(KubernetesClient client,
      TestNamespace ns) throws Exception {
    prepare(client, ns);
    client.resource(hello(ns, "steady")).create();
    assertAnswersBuildless(client, ns, "hello", "hello steady");
    String clusterIp = client.services().inNamespace(ns.name()).withName("hello").get().getSpec().getClusterIP();

    try (ServiceLoad load = ServiceLoad.start(URI.create("http://" + clusterIp + "/"), 2)) {
      FunctionEdits.edit(client, ns, "hello", fn -> {
        fn.getSpec().getSource().getInline().setSource("module.exports = { main: () => 'hello never' };\n");
        fn.getSpec().getSource().getInline().setDependencies(
            "{\"name\": \"hello\", \"version\": \"1.0.0\", \"dependencies\": {\"gitfn-no-such-package\": \"1.0.0\"}}");
        return fn;
      });
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
        Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
        Condition running = fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("Running"))
            .findFirst().orElseThrow();
        // The install fails, and gitfn rolls back to the steady version, saying why.
        assertThat(running.getStatus()).isEqualTo("False");
        assertThat(running.getReason()).isEqualTo("RolledBack");
        assertThat(running.getMessage()).contains("failed to roll out: DependencyInstallFailed")
            .contains("init container install exited with code")
            .contains("installing the Function's dependencies from package.json");
      });
      assertRollbackHolds(client, ns, "hello");
      load.stopAfterAnswers(20);

      assertThat(load.failures()).as("requests that failed while the new version could not install").isEmpty();
      assertThat(load.answers()).as("every answer came from the running version").containsOnly("hello steady");
    }
  }

  @Test
  void aGitFunctionInstallsFromItsOwnLockFileAndALockOutOfStepWithPackageJsonFailsWhileTheOldVersionServes(
      KubernetesClient client, TestNamespace ns, @TempDir Path home) throws Exception {
    prepare(client, ns);
    try (GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"))) {
      String cloneUrl = gitea.createRepository("functions");
      WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
      // A range in package.json, the exact version and its integrity in the lock file, as `npm install` writes it.
      copy.write("clock/handler.js", "const ms = require('ms');\n"
              + "module.exports = { main: () => 'ms ' + require('ms/package.json').version + ': ' + ms(90000) };\n")
          .write("clock/package.json", CLOCK_PACKAGE.formatted("^2.1.0"))
          .write("clock/package-lock.json", CLOCK_LOCK.formatted("^2.1.0"))
          .commit("clock");
      copy.push("HEAD:refs/heads/main");
      client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
      gitea.addWebhook("functions", gitfn.webhookUri().resolve("gitea"), NodeGitfn.CONTROLLER_SECRET);
      client.resource(buildless(TestFunction.fromGit(cloneUrl, "main", "clock").named("clock")
          .inNamespace(ns.name()).uid(null).runtime(FunctionRuntime.NODEJS22).gitAuth(AuthType.BASIC, "git")))
          .create();

      assertAnswersBuildless(client, ns, "clock", "ms 2.1.3: 2m");
      assertThat(sources(client, ns, "clock")).singleElement()
          .satisfies(source -> assertThat(source.getData()).containsKey("function.package-lock.json"));

      // npm ci refuses a lock file that does not satisfy package.json: proof that the lock file is what installs.
      copy.write("clock/package.json", CLOCK_PACKAGE.formatted("2.1.2"))
          .commit("clock wants ms 2.1.2, lock not updated");
      copy.push("HEAD:refs/heads/main");
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
        Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("clock").get();
        Condition running = fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("Running"))
            .findFirst().orElseThrow();
        assertThat(running.getReason()).isEqualTo("RolledBack");
        assertThat(running.getMessage()).contains("failed to roll out: DependencyInstallFailed")
            .contains("installing the Function's dependencies from package-lock.json failed");
      });
      assertRollbackHolds(client, ns, "clock");
      String clusterIp = client.services().inNamespace(ns.name()).withName("clock").get().getSpec().getClusterIP();
      assertThat(FunctionAnswers.get("http://" + clusterIp + "/")).as("the running version")
          .isEqualTo("ms 2.1.3: 2m");
    }
  }

  /**
   * The rollback stays put: the failed version is not rolled out again (a buildless release's key is derived from
   * the plan's, and a quarantine compared with the plan's key once let it loop, rolling back every pass).
   */
  private static void assertRollbackHolds(KubernetesClient client, TestNamespace ns, String name) {
    String since = client.resources(Function.class).inNamespace(ns.name()).withName(name).get().getStatus()
        .getRollback().getTime();
    await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8)).untilAsserted(() -> {
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
      assertThat(fn.getStatus().getRollback()).isNotNull();
      assertThat(fn.getStatus().getRollback().getTime()).as("rolled back once, not again and again").isEqualTo(since);
    });
  }

  private static final String CLOCK_PACKAGE = """
      {"name": "clock", "version": "1.0.0", "dependencies": {"ms": "%s"}}
      """;

  private static final String CLOCK_LOCK = """
      {
        "name": "clock",
        "version": "1.0.0",
        "lockfileVersion": 3,
        "requires": true,
        "packages": {
          "": {"name": "clock", "version": "1.0.0", "dependencies": {"ms": "%s"}},
          "node_modules/ms": {
            "version": "2.1.3",
            "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",
            "integrity": "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==",
            "license": "MIT"
          }
        }
      }
      """;

  /** The Secrets of {@link NodeGitfn#prepare}, and the dependency cache's claim on a local volume of its own. */
  private static void prepare(KubernetesClient client, TestNamespace ns) {
    gitfn.prepare(client, ns.name());
    Path folder;
    try {
      folder = Files.createDirectories(node.runDirectory().resolve("dependency-cache").resolve(ns.name()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String volume = "dependencies-" + ns.name();
    client.persistentVolumes().resource(new PersistentVolumeBuilder()
        .withNewMetadata().withName(volume).endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", new Quantity("1Gi")))
        .withAccessModes("ReadWriteOnce")
        .withPersistentVolumeReclaimPolicy("Retain")
        .withStorageClassName("")
        .withNewLocal().withPath(folder.toString()).endLocal()
        .withNewNodeAffinity().withNewRequired().addNewNodeSelectorTerm().addNewMatchExpression()
        .withKey("kubernetes.io/hostname").withOperator("In").withValues(node.nodeName())
        .endMatchExpression().endNodeSelectorTerm().endRequired().endNodeAffinity()
        .endSpec().build()).create();
    client.persistentVolumeClaims().inNamespace(ns.name()).resource(new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(CACHE_CLAIM).endMetadata()
        .withNewSpec().withAccessModes("ReadWriteOnce").withStorageClassName("").withVolumeName(volume)
        .withNewResources().withRequests(Map.of("storage", new Quantity("1Gi"))).endResources()
        .endSpec().build()).create();
  }

  /** The output of the install init container of the Function's Pods that are not terminating. */
  private static String installLogs(KubernetesClient client, TestNamespace ns, String name) {
    StringBuilder logs = new StringBuilder();
    for (Pod pod : client.pods().inNamespace(ns.name()).withLabel(Labels.FUNCTION_NAME, name).list().getItems()) {
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        logs.append(client.pods().inNamespace(ns.name()).withName(pod.getMetadata().getName())
            .inContainer(BuildlessDeployment.INSTALL).getLog());
      }
    }
    return logs.toString();
  }

  private static Function buildless(TestFunction fn) {
    return fn.metadataAnnotation(Annotations.BUILD_MODE, "buildless").build();
  }

  private static Function hello(TestNamespace ns, String version) {
    return buildless(TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.NODEJS22).code("module.exports = { main: () => 'hello " + version + "' };\n"));
  }

  private static void edit(KubernetesClient client, TestNamespace ns, String version) {
    FunctionEdits.edit(client, ns, "hello", fn -> {
      fn.getSpec().getSource().getInline().setSource("module.exports = { main: () => 'hello " + version + "' };\n");
      return fn;
    });
  }

  /** Waits until the Function answers {@code expected} on its Service, from a buildless Pod and without a Job. */
  private static void assertAnswersBuildless(KubernetesClient client, TestNamespace ns, String name,
      String expected) {
    FunctionAnswers.awaitAnswer(client, ns.name(), name, expected);
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
    assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems()).as("build Jobs").isEmpty();
    assertThat(fn.getStatus().getImage()).as("the node's base image, not a built one")
        .doesNotContain(":" + fn.getStatus().getHistory().get(0).getContentKey().substring(0, 32));
    assertThat(fn.getStatus().getConditions()).filteredOn(c -> c.getType().equals("BuildReady")).singleElement()
        .satisfies(c -> assertThat(c.getReason()).isEqualTo("NoBuildNeeded"));
    assertThat(sources(client, ns, name)).isNotEmpty();
  }

  private static List<ConfigMap> sources(KubernetesClient client, TestNamespace ns, String name) {
    return client.configMaps().inNamespace(ns.name()).withLabels(Map.of(Labels.FUNCTION_NAME, name,
        Labels.RESOURCE, BuildlessSource.RESOURCE)).list().getItems();
  }
}
