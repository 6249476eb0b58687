package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.controller.Controller;
import io.gitfn.registry.ImageName;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.RegistryReads;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layered builder in the controller, against a real API server, kwok and a real registry: the install Job of a
 * dependency change (kwok runs it; the test bed pushes as its {@code pack} container would) is shared by two
 * Functions with the same dependencies, a handler-only change starts no Job and moves a few KiB with no base layer,
 * a revert pushes nothing, and a registry that fails says so in BuildReady while the old version stays.
 */
@WithKubeCluster
class LayeredBuilderIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  private static OciRegistry registry;
  private static BuildSettings layered;

  @BeforeAll
  static void useTheTestBedsRegistry(KubeTestBed bed) {
    registry = bed.layeredBuilds().registry();
    layered = bed.layeredBuilds().settings();
  }

  @Test
  void dependenciesInstallOnceAndAHandlerChangeOrARevertStartsNoJob(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    // The install Job's Pod runs for 20 s (KwokLayeredBuilds pushes what its pack container would), long enough for
    // the second Function's first pass to share it on a loaded CI machine: with 6 s, the second Function once came
    // after the Job had finished, found the image, and the first Function, its only owner, deleted the Job.
    BuildSettings builds = layered.withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofSeconds(20)));
    try (KubernetesClient controllerClient = bed.newClient();
        Controller controller = start(controllerClient, builds);
        JobLog jobs = JobLog.watch(client, ns)) {
      apply(client, function(ns, "orders", "v1"));
      Job install = await().atMost(WAIT).until(() -> client.batch().v1().jobs().inNamespace(ns.name()).list()
          .getItems().stream().findFirst().orElse(null), job -> job != null);
      apply(client, function(ns, "payments", "p1"));
      await().atMost(WAIT).untilAsserted(() -> {
        Set<String> functions = Set.of(get(client, ns, "orders").getMetadata().getUid(),
            get(client, ns, "payments").getMetadata().getUid());
        String name = install.getMetadata().getName();
        assertThat(owners(client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get()))
            .as("the Job is shared").isEqualTo(functions);
        assertThat(owners(client.configMaps().inNamespace(ns.name()).withName(name).get()))
            .as("and so is the ConfigMap it installs from: the first Function's deletion leaves it").isEqualTo(functions);
      });
      await().atMost(WAIT).untilAsserted(() -> {
        for (String name : List.of("orders", "payments")) {
          Function fn = get(client, ns, name);
          assertThat(condition(fn, "BuildReady").getReason()).as(name).isEqualTo("LayersReused");
          assertThat(condition(fn, "Running").getStatus()).as(name).isEqualTo("True");
          assertThat(image(client, ns, name)).as(name).matches(".*/" + ns.name() + "/" + name + ":[0-9a-f]+@sha256:"
              + "[0-9a-f]{64}");
        }
      });
      assertThat(jobs.names()).as("one install Job for both Functions' dependencies, whatever their packages'"
          + " names").containsExactly(
          install.getMetadata().getName());
      await().atMost(WAIT).untilAsserted(() -> {
        String name = install.getMetadata().getName();
        assertThat(client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get())
            .as("both left the install Job once they rolled out, and the last deleted it").isNull();
        assertThat(client.configMaps().inNamespace(ns.name()).withName(name).get()).as("with its ConfigMap").isNull();
      });
      assertThat(install.getMetadata().getName()).matches("gitfn-deps-[0-9a-f]{32}");
      String v1 = image(client, ns, "orders");
      assertThat(get(client, ns, "orders").getStatus().getHistory().get(0).getImage()).isEqualTo(v1);

      int before = registry.requests().size();
      apply(client, function(ns, "orders", "v2"));
      await().atMost(WAIT).until(() -> !image(client, ns, "orders").equals(v1));
      List<OciRegistry.Request> handlerOnly = List.copyOf(registry.requests().subList(before,
          registry.requests().size()));
      List<String> baseLayers = RegistryReads.layerDigests(RegistryReads.manifest(base()));
      assertThat(handlerOnly).filteredOn(r -> r.method().equals("GET")
          && baseLayers.stream().anyMatch(r.path()::endsWith)).as("no base layer downloaded").isEmpty();
      assertThat(handlerOnly).filteredOn(r -> r.method().equals("PATCH")).as("two uploads: source layer, config")
          .hasSize(2);
      String message = await().atMost(WAIT).until(() -> condition(get(client, ns, "orders"), "BuildReady")
          .getMessage(), m -> m.contains("with no build Pod"));
      Matcher uploaded = Pattern.compile("(\\d+) bytes uploaded").matcher(message);
      assertThat(uploaded.find()).as(message).isTrue();
      assertThat(Long.parseLong(uploaded.group(1))).as("bytes pushed for a handler-only change")
          .isLessThan(64 * 1024);

      before = registry.requests().size();
      apply(client, function(ns, "orders", "v1"));
      await().atMost(WAIT).until(() -> image(client, ns, "orders").equals(v1));
      assertThat(registry.requests().subList(before, registry.requests().size()))
          .as("a revert to a version in the history asks the registry nothing").isEmpty();
      assertThat(jobs.names()).as("no Job for a handler-only change or a revert").hasSize(1);
    }
  }

  @Test
  void aRegistryThatDoesNotAnswerInTimeFailsBuildReadyWhileTheOldVersionServes(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    bed.installCrds();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        KubernetesClient controllerClient = bed.newClient();
        Controller controller = start(controllerClient, layered.withPushDeadline(Duration.ofSeconds(2))
            .withInsecureRegistries(Set.of(registry.address(), "127.0.0.1:" + silent.getLocalPort())))) {
      apply(client, TestFunction.inline().named("plain").inNamespace(ns.name()).uid(null)
          .runtime(FunctionRuntime.NODEJS22).code("module.exports = { main: () => 'a' };").build());
      // Asserted, not polled: the Function may have no status yet at the first look.
      await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns, "plain"), "Running").getStatus())
          .isEqualTo("True"));
      String running = image(client, ns, "plain");

      apply(client, TestFunction.inline().named("plain").inNamespace(ns.name()).uid(null)
          .runtime(FunctionRuntime.NODEJS22).runtimeImageOverride("127.0.0.1:" + silent.getLocalPort() + "/node:1")
          .code("module.exports = { main: () => 'b' };").build());
      await().atMost(WAIT).untilAsserted(() -> {
        Condition buildReady = condition(get(client, ns, "plain"), "BuildReady");
        assertThat(buildReady.getStatus()).isEqualTo("False");
        assertThat(buildReady.getReason()).isEqualTo("RegistryFailed");
        assertThat(buildReady.getMessage()).contains("127.0.0.1:" + silent.getLocalPort() + "/node:1")
            .contains("did not finish within 2 s").contains("the running version stays");
      });
      assertThat(image(client, ns, "plain")).as("the old version serves").isEqualTo(running);
    }
  }

  private static Controller start(KubernetesClient client, BuildSettings builds) throws Exception {
    return Controller.start(client, SourceSettings.defaults(Files.createTempDirectory("gitfn-layered-mirrors")),
        WebhookSettings.defaults(), ControllerSettings.defaults(), builds, WorkloadSettings.defaults(), "127.0.0.1", 0);
  }

  private static ImageName base() {
    return ImageName.parse(registry.address() + "/" + OciRegistry.NODE_BASE);
  }

  /**
   * A Function whose package.json is named after it, as Kyma's tutorials write them: two such Functions with the
   * same dependencies still share one install Job (InstallInputs).
   */
  private static Function function(TestNamespace ns, String name, String version) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null).runtime(FunctionRuntime.NODEJS22)
        .code("module.exports = { main: () => '" + version + "' };")
        .dependencies("{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .build();
  }

  private static Set<String> owners(HasMetadata object) {
    assertThat(object).as("the install Job or its ConfigMap").isNotNull();
    return object.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid)
        .collect(Collectors.toSet());
  }

  private static void apply(KubernetesClient client, Function fn) {
    client.resource(fn).fieldManager("layered-builder-it").forceConflicts().serverSideApply();
  }

  private static String image(KubernetesClient client, TestNamespace ns, String name) {
    Deployment deployment = client.apps().deployments().inNamespace(ns.name()).withLabel(
        "serverless.kyma-project.io/function-name", name).list().getItems().stream().findFirst().orElse(null);
    return deployment == null ? "" : deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Condition condition(Function fn, String type) {
    assertThat(fn.getStatus()).as(fn.getMetadata().getName() + " has a status").isNotNull();
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError(fn.getMetadata().getName() + " has no condition " + type));
  }
}
