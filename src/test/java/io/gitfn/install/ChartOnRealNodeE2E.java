package io.gitfn.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * charts/gitfn on the real node, as an air-gapped operator installs it: the controller image that {@code mvn verify}
 * built (target/gitfn-image.tar) runs as the chart's two leader-elected Pods, with only registry, builder, base
 * image and package-registry values set, and the chart's default builder, layered. A Gitea push reaches the leader
 * through the chart's webhook Service, and the Function it brings answers through its own Service, in a namespace
 * that enforces Pod Security {@code restricted}: the install Job that makes its runtime and dependency image, and
 * the image the controller assembles on it, need no privilege.
 */
@WithRealNode
class ChartOnRealNodeE2E {

  private static final Logger log = LoggerFactory.getLogger(ChartOnRealNodeE2E.class);
  private static final String RELEASE = "gitfn";
  private static final String LEASE = "gitfn-controller-leader";
  private static final String PACKAGE_REGISTRY_SECRET = NodeGitfn.PACKAGE_REGISTRY_SECRET;
  // Two controller JVMs starting at once on two shared cores.
  private static final Duration CONTROLLER_START = Duration.ofMinutes(3);
  // A build Pod installs the runtime's packages from the mirrors on two shared cores.
  private static final Pattern TRIGGERED = Pattern.compile(
      "(?m)^gitfn_webhook_deliveries_total\\{forge=\"gitea\",result=\"triggered\"} ([0-9.]+)$");

  @Test
  void theChartsLeaderTakesAGiteaPushThroughTheWebhookServiceAndTheFunctionItBringsAnswers(RealNode node,
      KubernetesClient client, TestNamespace ns, @TempDir Path home) throws Exception {
    Steps steps = new Steps();
    NodeImages images = NodeImages.build();
    String registry = node.registry();
    for (String name : List.of("nodejs20", "nodejs22", "python312")) {
      node.pushImage(images.archive(name), images.reference(name));
    }
    // The chart's default tag is its appVersion, the project version (ChartImageTest). Its install Jobs pack with
    // this image too.
    node.pushImage(TestBedBinaries.controllerImage(), "gitfn/gitfn:" + ChartImageTest.projectVersion());
    steps.mark("images pushed");
    String apps = ns.name() + "-apps";
    try (PackageMirrors mirrors = PackageMirrors.start(images.packages(), InetAddress.getByName(node.hostAddress()));
        GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(
            Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"),
            node.hostAddress())) {
      try {
        helmInstall(node, ns, """
            image:
              repository: %1$s/gitfn/gitfn
            registry:
              address: %1$s
              insecure: [%1$s]
            packageRegistry:
              secretName: %2$s
            builder:
              baseImages:
                nodejs20: %1$s/%3$s
                nodejs22: %1$s/%4$s
                python312: %1$s/%5$s
            """.formatted(registry, PACKAGE_REGISTRY_SECRET, images.reference("nodejs20"),
            images.reference("nodejs22"), images.reference("python312")));
        Pod leader = awaitTwoReadyControllersAndTheirLeader(client, ns);
        steps.mark("chart installed, 2 controllers Ready, leader " + leader.getMetadata().getName());
        String webhook = "http://" + client.services().inNamespace(ns.name()).withName(RELEASE + "-webhook").get()
            .getSpec().getClusterIP() + ":9292/hooks/gitea";
        assertThat(readyEndpoints(client, ns)).as("the webhook Service's endpoints: the leader's Pod only")
            .containsExactly(leader.getStatus().getPodIP());

        createNamespace(client, apps);
        prepareSecrets(client, apps, mirrors, gitea);
        String cloneUrl = gitea.createRepository("infra");
        WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
        String empty = copy.write("functions/README.md", "# Functions\n").commit("an empty folder");
        copy.push("HEAD:refs/heads/main");
        followRepository(client, apps, cloneUrl);
        awaitApplied(client, apps, empty, Duration.ofMinutes(1));
        steps.mark("FunctionRepository applied the empty folder (the controller Pod reached Gitea)");
        // Added once the repository is followed: Gitea hands a push to its hooks asynchronously, so a hook added
        // right after the first push may get that push too, before the controller knows the repository's secret.
        gitea.addWebhook("infra", URI.create(webhook), "hook-" + apps);

        // One built, one buildless (by annotation): the chart's RBAC and settings must serve both modes.
        String hello = copy.write("functions/hello.yaml", TestFunction.declared("hello")
            .runtime(FunctionRuntime.NODEJS22).code("module.exports = { main: () => 'hello from the chart' };\n")
            .toYaml())
            .write("functions/hello-buildless.yaml", TestFunction.declared("hello-buildless")
                .metadataAnnotation(Annotations.BUILD_MODE, "buildless").runtime(FunctionRuntime.NODEJS22)
                .code("module.exports = { main: () => 'buildless from the chart' };\n").toYaml())
            .commit("hello, built and buildless");
        copy.push("HEAD:refs/heads/main");
        // Hourly polling: only the webhook brings the push in time.
        awaitApplied(client, apps, hello, Duration.ofSeconds(30));
        steps.mark("the push reached the leader through the webhook Service and was applied");
        FunctionRepository repository = client.resources(FunctionRepository.class).inNamespace(apps)
            .withName("infra").get();
        assertThat(repository.getStatus().getLastWebhook().getForge()).isEqualTo("gitea");
        assertThat(repository.getStatus().getLastWebhook().getRevision()).endsWith(hello);
        assertThat(triggeredDeliveries(leader)).as("Gitea deliveries the leader acted on").isEqualTo(1);
        for (Pod standby : controllers(client, ns)) {
          if (!standby.getMetadata().getName().equals(leader.getMetadata().getName())) {
            assertThat(triggeredDeliveries(standby)).as("Gitea deliveries the standby %s acted on",
                standby.getMetadata().getName()).isZero();
          }
        }

        FunctionAnswers.awaitAnswer(client, apps, "hello", "hello from the chart");
        steps.mark("hello assembled on the layers an install Job made, answering through its Service");
        FunctionAnswers.awaitAnswer(client, apps, "hello-buildless", "buildless from the chart");
        steps.mark("hello-buildless installed by its init container and answering through its Service");
        assertThat(client.batch().v1().jobs().inNamespace(apps)
            .withLabel(Labels.FUNCTION_NAME, "hello-buildless").list().getItems())
            .as("build Jobs of hello-buildless").isEmpty();
        Function fn = client.resources(Function.class).inNamespace(apps).withName("hello").get();
        assertThat(fn.getStatus().getImage()).as("the image the controller pushed")
            .startsWith(registry + "/" + apps + "/hello");
        assertThat(client.apps().deployments().inNamespace(apps).withName("hello").get().getSpec().getTemplate()
            .getSpec().getContainers().get(0).getImage()).as("hello's Deployment names its image by digest")
            .startsWith(registry + "/" + apps + "/hello:").contains("@sha256:");
        assertThat(controllers(client, ns)).as("controller Pods, none restarted").hasSize(2)
            .allSatisfy(pod -> assertThat(pod.getStatus().getContainerStatuses())
                .extracting(ContainerStatus::getRestartCount).containsOnly(0));
        log.info("chart on the real node: {}", steps);
      } finally {
        long uninstalling = System.nanoTime();
        uninstall(node, client, ns, apps);
        log.info("chart on the real node: Functions deleted and release uninstalled in {} ms",
            (System.nanoTime() - uninstalling) / 1_000_000);
      }
    }
  }

  private static void helmInstall(RealNode node, TestNamespace ns, String values) {
    Manifests.helm("install", RELEASE, Manifests.CHART.toString(), "-n", ns.name(), "--kubeconfig",
        node.kubeconfig().toString(), "-f", Manifests.valuesFile(values).toString());
  }

  /** Waits until the Deployment's two Pods are Ready and the Lease's holder has labelled its own Pod. */
  private static Pod awaitTwoReadyControllersAndTheirLeader(KubernetesClient client, TestNamespace ns) {
    await().atMost(CONTROLLER_START).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
      Deployment deployment = client.apps().deployments().inNamespace(ns.name()).withName(RELEASE + "-controller")
          .get();
      assertThat(deployment.getStatus().getReadyReplicas()).as("Ready controllers; %s", describePods(client, ns))
          .isEqualTo(2);
    });
    return await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
      String holder = client.leases().inNamespace(ns.name()).withName(LEASE).get().getSpec().getHolderIdentity();
      List<Pod> labelled = client.pods().inNamespace(ns.name()).withLabel(Labels.LEADER, LEASE).list().getItems();
      // The holder is "<Pod name>_<random suffix>" (ControllerCommand.instanceName).
      return labelled.size() == 1 && holder.startsWith(labelled.get(0).getMetadata().getName() + "_")
          ? labelled.get(0) : null;
    }, leader -> leader != null);
  }

  private static List<String> readyEndpoints(KubernetesClient client, TestNamespace ns) {
    return await().atMost(Duration.ofSeconds(30)).until(() -> client.discovery().v1().endpointSlices()
        .inNamespace(ns.name()).withLabel("kubernetes.io/service-name", RELEASE + "-webhook").list().getItems()
        .stream().map(EndpointSlice::getEndpoints).filter(e -> e != null).flatMap(List::stream)
        .filter(e -> e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady()))
        .map(Endpoint::getAddresses).flatMap(List::stream).toList(), addresses -> !addresses.isEmpty());
  }

  private static List<Pod> controllers(KubernetesClient client, TestNamespace ns) {
    return client.pods().inNamespace(ns.name()).withLabel("app.kubernetes.io/component", "controller").list()
        .getItems();
  }

  private static String describePods(KubernetesClient client, TestNamespace ns) {
    return controllers(client, ns).stream().map(pod -> pod.getMetadata().getName() + " " + pod.getStatus().getPhase()
        + " " + pod.getStatus().getContainerStatuses()).toList().toString();
  }

  /** A namespace for Functions that enforces Pod Security {@code restricted}: no Pod of gitfn's needs more. */
  private static void createNamespace(KubernetesClient client, String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
    client.serviceAccounts().inNamespace(name).withName("default")
        .waitUntilCondition(sa -> sa != null, 60, TimeUnit.SECONDS);
  }

  /** The Secrets a namespace with Functions needs: registry push, package registry, Git and webhook. */
  private static void prepareSecrets(KubernetesClient client, String namespace, PackageMirrors mirrors,
      GiteaServer gitea) {
    NodeGitfn.createBuildSecrets(client, namespace, mirrors);
    client.secrets().inNamespace(namespace).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata().withName("hook").endMetadata()
        .withStringData(Map.of("token", "hook-" + namespace))
        .build()).create();
  }

  /** A FunctionRepository on the Gitea repository, polled hourly: only the webhook brings a push in time. */
  private static void followRepository(KubernetesClient client, String namespace, String url) {
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: "
            + namespace + "}, spec: {url: '" + url + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " allowEmpty: true, secretRef: {name: git}, webhook: {secretRef: {name: hook}}}}",
        FunctionRepository.class)).create();
  }

  private static void awaitApplied(KubernetesClient client, String namespace, String commit, Duration within) {
    await().atMost(within).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      FunctionRepository repository = client.resources(FunctionRepository.class).inNamespace(namespace)
          .withName("infra").get();
      assertThat(repository.getStatus()).as("status of the FunctionRepository").isNotNull();
      assertThat(repository.getStatus().getLastAppliedRevision()).as("applied revision; conditions %s",
          repository.getStatus().getConditions()).endsWith(commit);
    });
  }

  /** {@code gitfn_webhook_deliveries_total{forge="gitea",result="triggered"}} on the Pod's metrics port. */
  private static int triggeredDeliveries(Pod pod) throws Exception {
    String metrics = FunctionAnswers.get("http://" + pod.getStatus().getPodIP() + ":8080/metrics");
    Matcher matcher = TRIGGERED.matcher(metrics);
    return matcher.find() ? (int) Double.parseDouble(matcher.group(1)) : 0;
  }

  /** Each controller Pod's log, into the node's logs/ (kept by the teardown), for a failure to be read later. */
  private static void keepControllerLogs(RealNode node, KubernetesClient client, TestNamespace ns) {
    for (Pod pod : controllers(client, ns)) {
      try {
        String text = client.pods().inNamespace(ns.name()).withName(pod.getMetadata().getName()).getLog();
        Path file = node.runDirectory().resolve("logs/chart-" + pod.getMetadata().getName() + ".log");
        Files.writeString(file, text);
        log.info("controller log of {} in {}", pod.getMetadata().getName(), file);
      } catch (RuntimeException | IOException e) {
        log.warn("cannot keep the log of {}: {}", pod.getMetadata().getName(), e.getMessage());
      }
    }
  }

  /**
   * Deletes the FunctionRepository, which deletes its Functions, and waits while the controller still runs until
   * both are gone (their finalizers are the controller's); then the Functions' namespace, and uninstalls the release
   * and waits until its Pods are gone: a controller left running would fight the next test's. Deleting the
   * namespace first takes longer: the Function's pass then fails on the terminating namespace, and its finalizer
   * went about 25 s later.
   */
  private static void uninstall(RealNode node, KubernetesClient client, TestNamespace ns, String apps) {
    try {
      client.resources(FunctionRepository.class).inNamespace(apps).withName("infra").delete();
      await().atMost(Duration.ofMinutes(2)).until(() -> client.resources(Function.class).inNamespace(apps).list()
          .getItems().isEmpty() && client.resources(FunctionRepository.class).inNamespace(apps).list().getItems()
          .isEmpty());
      log.info("chart on the real node: the FunctionRepository and its Functions are gone");
    } catch (RuntimeException e) {
      log.warn("the Functions of namespace {} were not deleted: {}", apps, e.getMessage());
    } finally {
      keepControllerLogs(node, client, ns);
      client.namespaces().withName(apps).delete();
      try {
        Manifests.helm("uninstall", RELEASE, "-n", ns.name(), "--kubeconfig", node.kubeconfig().toString(), "--wait");
      } catch (Manifests.ToolFailed e) {
        log.warn("helm uninstall failed (did the install?): {}", e.getMessage());
      }
      await().atMost(Duration.ofMinutes(1)).until(() -> controllers(client, ns).isEmpty());
    }
  }

  /** How long each step took, for the log line docs/testing.md quotes. */
  private static final class Steps {
    private final long started = System.nanoTime();
    private long last = started;
    private final StringBuilder text = new StringBuilder();

    void mark(String step) {
      long now = System.nanoTime();
      text.append(text.isEmpty() ? "" : "; ").append(step).append(' ').append((now - last) / 1_000_000).append(" ms");
      last = now;
    }

    @Override
    public String toString() {
      return text + "; total " + (last - started) / 1_000_000 + " ms";
    }
  }
}
