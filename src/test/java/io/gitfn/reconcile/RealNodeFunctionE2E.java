package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.Browser;
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
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * Functions on a real node: the controller builds each one's image with the layered builder (an install Job
 * installs its packages from the mirrors on the host, the controller pushes the rest), to the node's registry, and a
 * Pod that pulled it by digest answers through the Function's Service. Nothing leaves the machine.
 */
@WithRealNode
class RealNodeFunctionE2E {

  // A cold build on two cores installs gitfn's runtime packages and the Function's dependencies in the Pod.

  private static final Path SCREENSHOTS = Path.of("target", "dashboard");
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
  void aNodeFunctionWithAnNpmDependencyIsBuiltAndAnswersThroughItsService(KubernetesClient client, TestNamespace ns)
      throws Exception {
    createSecrets(client, ns);
    // nodejs24, Kyma's default runtime, on its own base image; the revert test below runs nodejs22.
    Function fn = TestFunction.inline().named("node-hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.NODEJS24)
        .code("const ms = require('ms');\nmodule.exports = { main: () => 'node says ' + ms(60000) };\n")
        .dependencies("{\"name\": \"node-hello\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .build();

    client.resource(fn).create();

    assertAnswers(client, ns, "node-hello", "node says 1m");
  }

  @Test
  void aPythonFunctionWithAPipDependencyIsBuiltAndAnswersThroughItsService(KubernetesClient client,
      TestNamespace ns) throws Exception {
    createSecrets(client, ns);
    Function fn = TestFunction.inline().named("py-hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.PYTHON312)
        .code("import six\n\ndef main(event, context):\n    return 'python says ' + six.ensure_text(b'ok')\n")
        .dependencies("six==1.17.0\n")
        .build();

    client.resource(fn).create();

    assertAnswers(client, ns, "py-hello", "python says ok");
  }

  @Test
  void aPushThroughGiteaDeploysAndARevertUnderLoadBuildsNothingAndFailsNoRequest(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    createSecrets(client, ns);
    try (GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(
            Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"));
        JobLog jobs = JobLog.watch(client, ns)) {
      WorkingCopy copy = infraRepository(client, ns, gitea, home);
      copy.write("functions/hello.yaml", hello(ns, "v1")).commit("hello v1");
      copy.push("HEAD:refs/heads/main");
      assertAnswers(client, ns, "hello", "hello v1");
      String clusterIp = clusterIp(client, ns, "hello");

      try (ServiceLoad load = ServiceLoad.start(URI.create("http://" + clusterIp + "/"), 2)) {
        copy.write("functions/hello.yaml", hello(ns, "v2")).commit("hello v2");
        copy.push("HEAD:refs/heads/main");
        await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("hello v2"));
        int buildsBeforeRevert = jobs.uids().size();

        copy.git("revert", "--no-edit", "HEAD");
        copy.push("HEAD:refs/heads/main");
        await().atMost(Duration.ofMinutes(2)).until(() -> load.lastAnswer().equals("hello v1"));
        load.stopAfterAnswers(20);

        assertThat(load.requests()).as("requests sent during the push and the revert").isGreaterThan(100);
        assertThat(load.failures()).as("requests that failed during the push and the revert").isEmpty();
        assertThat(load.answers()).as("answers in the order they came").containsSubsequence("hello v1", "hello v2",
            "hello v1");
        assertThat(jobs.uids()).as("Jobs: v1's install (the namespace's first), none for v2's handler or the revert")
            .hasSize(1).hasSize(buildsBeforeRevert);
      }
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
      assertThat(fn.getStatus().getHistory().get(0).getOutcome()).isEqualTo("Reused");
    }
  }

  @Test
  void aFunctionWithAGitSourceIsBuiltFromItsFolderAndAPushThroughGiteaRebuildsIt(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    createSecrets(client, ns);
    try (GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"))) {
      String cloneUrl = gitea.createRepository("functions");
      WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
      copy.write("functions/greeter/handler.js", "module.exports = { main: () => 'greeter v1' };\n")
          .write("functions/greeter/package.json", "{\"name\": \"greeter\", \"version\": \"1.0.0\"}\n")
          .commit("greeter v1");
      copy.push("HEAD:refs/heads/main");
      client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
      gitea.addWebhook("functions", gitfn.webhookUri().resolve("gitea"), NodeGitfn.CONTROLLER_SECRET);
      client.resource(TestFunction.fromGit(cloneUrl, "main", "functions/greeter").named("greeter")
          .inNamespace(ns.name()).uid(null).gitAuth(AuthType.BASIC, "git").build()).create();
      assertAnswers(client, ns, "greeter", "greeter v1");

      String second = copy.write("functions/greeter/handler.js", "module.exports = { main: () => 'greeter v2' };\n")
          .commit("greeter v2");
      copy.push("HEAD:refs/heads/main");

      assertAnswers(client, ns, "greeter", "greeter v2");
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("greeter").get();
      assertThat(fn.getStatus().getCommit()).as("the commit the webhook brought").isEqualTo(second);
    }
  }

  @Test
  void releasesThatCannotBuildOrStartNeverTakeTrafficAndAFixDeploysWithNoFailedRequest(KubernetesClient client,
      TestNamespace ns) throws Exception {
    createSecrets(client, ns);
    client.resource(helloFunction(ns, "steady")).create();
    assertAnswers(client, ns, "hello", "hello steady");
    String clusterIp = clusterIp(client, ns, "hello");

    try (ServiceLoad load = ServiceLoad.start(URI.create("http://" + clusterIp + "/"), 2)) {
      String steadyImage = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get()
          .getStatus().getImage();
      // A build that fails (npm cannot find the package): the Deployment never moves, and the build is not retried.
      FunctionEdits.edit(client, ns, "hello", fn -> {
        fn.getSpec().getSource().getInline().setDependencies(
            "{\"name\": \"hello\", \"version\": \"1.0.0\", \"dependencies\": {\"gitfn-no-such-package\": \"1.0.0\"}}");
        return fn;
      });
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
        Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
        assertThat(fn.getStatus().getConditions()).filteredOn(c -> c.getType().equals("BuildReady")).singleElement()
            .satisfies(c -> assertThat(c.getReason()).isEqualTo("JobFailed"));
      });
      assertThat(client.apps().deployments().inNamespace(ns.name()).withName("hello").get().getSpec().getTemplate()
          .getSpec().getContainers().get(0).getImage()).as("the Deployment after a failed build").isEqualTo(steadyImage);
      // The dashboard shows why: the failed Job, and npm's complaint in the end of its Pod's log.
      URI page = gitfn.dashboardUri().resolve("functions/" + ns.name() + "/hello");
      try (Browser browser = Browser.start()) {
        WebElement log = browser.open(page).await("pre.log", l -> l.getText().contains("gitfn-no-such-package"),
            Duration.ofSeconds(30));
        assertThat(log.getText()).as("the build's own words").containsIgnoringCase("404");
        assertThat(browser.driver().findElement(By.cssSelector("p.build")).getText()).startsWith("Failed Job gitfn-");
        assertThat(browser.driver().findElement(By.cssSelector("p.rollout")).getText()).startsWith("Complete");
        browser.screenshot(SCREENSHOTS.resolve("function-failed-build.png"), "h2.rollout-heading");
      }

      Function broken = helloFunction(ns, "broken");
      broken.getSpec().getSource().getInline().setSource("throw new Error('cannot start');\n");
      FunctionEdits.edit(client, ns, "hello", fn -> {
        fn.getSpec().getSource().getInline().setSource(broken.getSpec().getSource().getInline().getSource());
        fn.getSpec().getSource().getInline().setDependencies(null);
        return fn;
      });
      // The new image is built, and its Pod crashes at start: Running says so, and the old Pod keeps serving.
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
        Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
        Condition running = fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("Running"))
            .findFirst().orElseThrow();
        assertThat(running.getStatus()).isNotEqualTo("True");
        assertThat(running.getMessage()).contains("CrashLoopBackOff");
      });
      // After three restarts it counts as crash-looping, and gitfn puts the steady version back with no build.
      await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> {
        Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
        Condition running = fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("Running"))
            .findFirst().orElseThrow();
        assertThat(running.getReason()).isEqualTo("RolledBack");
        assertThat(fn.getStatus().getRollback().getReason()).isEqualTo("CrashLooping");
        assertThat(client.pods().inNamespace(ns.name()).withLabels(java.util.Map.of(
                "serverless.kyma-project.io/function-name", "hello", "serverless.kyma-project.io/resource", "deployment"))
            .list().getItems()).as("the crashing version's Pods are gone")
            .filteredOn(p -> p.getMetadata().getDeletionTimestamp() == null).isNotEmpty()
            .allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getImage())
                .isEqualTo(fn.getStatus().getImage()));
      });
      // The timeline shows it: the steady key's colour comes back, marked as gitfn's rollback, and the crashing key
      // as a version that never rolled out.
      try (Browser browser = Browser.start()) {
        WebElement timeline = browser.open(page).await("figure.timeline",
            t -> !t.findElements(By.cssSelector("g.band.rolled-back")).isEmpty(), Duration.ofSeconds(30));
        String steadyKey = timeline.findElements(By.cssSelector("g.band")).get(0).getAttribute("class")
            .split(" ")[1];
        assertThat(timeline.findElement(By.cssSelector("g.band.rolled-back")).getAttribute("class"))
            .as("the same colour as the first version: the same key").contains(steadyKey);
        assertThat(timeline.findElements(By.cssSelector("g.mark.rolled-back"))).hasSize(1);
        assertThat(timeline.findElements(By.cssSelector("g.mark.not-rolled-out"))).isNotEmpty();
        assertThat(browser.driver().findElement(By.cssSelector("p.notice.failed")).getText())
            .contains("Rolled back automatically").contains("CrashLooping");
        browser.screenshot(SCREENSHOTS.resolve("function-rolled-back.png"), "h2.versions-heading");
      }

      // A fix deploys as any version does, and ends the quarantine.
      FunctionEdits.edit(client, ns, "hello", fn -> {
        fn.getSpec().getSource().getInline().setSource("module.exports = { main: () => 'hello fixed' };\n");
        return fn;
      });
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).until(() -> load.lastAnswer().equals("hello fixed"));
      load.stopAfterAnswers(20);
      assertThat(client.resources(Function.class).inNamespace(ns.name()).withName("hello").get().getStatus()
          .getRollback()).isNull();

      assertThat(load.requests()).as("requests sent while the broken releases tried to build and start")
          .isGreaterThan(100);
      assertThat(load.failures()).as("requests that failed meanwhile").isEmpty();
      assertThat(load.answers()).as("every answer came from a version that ran").containsOnly("hello steady",
          "hello fixed");
    }
  }

  /** An infra repository in Gitea, with its webhook to the controller and a FunctionRepository that follows it. */
  private static WorkingCopy infraRepository(KubernetesClient client, TestNamespace ns, GiteaServer gitea, Path home)
      throws Exception {
    String cloneUrl = gitea.createRepository("infra");
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    String secret = "hook-" + ns.name();
    client.secrets().inNamespace(ns.name()).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder()
        .withNewMetadata().withName("hook").endMetadata()
        .withStringData(Map.of("token", secret))
        .build()).create();
    // Hourly polling: only the webhook brings a push in time.
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: " + ns.name()
            + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " secretRef: {name: git}, webhook: {secretRef: {name: hook}}}}",
        FunctionRepository.class)).create();
    gitea.addWebhook("infra", gitfn.webhookUri().resolve("gitea"), secret);
    return copy;
  }

  /** The hello Function as the infra repository declares it, answering {@code hello <version>}. */
  private static String hello(TestNamespace ns, String version) {
    return TestFunction.declared("hello").code("module.exports = { main: () => 'hello " + version + "' };\n")
        .toYaml();
  }

  private static Function helloFunction(TestNamespace ns, String version) {
    return TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null).runtime(FunctionRuntime.NODEJS22)
        .code("module.exports = { main: () => 'hello " + version + "' };\n").build();
  }

  private static String clusterIp(KubernetesClient client, TestNamespace ns, String name) {
    return client.services().inNamespace(ns.name()).withName(name).get().getSpec().getClusterIP();
  }

  /** Waits until the Function runs its image, by digest from the node's registry, and answers {@code expected}. */
  private static void assertAnswers(KubernetesClient client, TestNamespace ns, String name, String expected) {
    FunctionAnswers.awaitAnswer(client, ns.name(), name, expected);
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
    assertThat(fn.getStatus().getImage()).as("the image the controller pushed")
        .startsWith(gitfn.registry() + "/" + ns.name() + "/" + name + ":").contains("@sha256:");
    assertThat(client.apps().deployments().inNamespace(ns.name()).withName(name).get().getSpec().getTemplate()
        .getSpec().getContainers().get(0).getImage()).isEqualTo(fn.getStatus().getImage());
  }

  private static void createSecrets(KubernetesClient client, TestNamespace ns) {
    gitfn.prepare(client, ns.name());
  }
}
