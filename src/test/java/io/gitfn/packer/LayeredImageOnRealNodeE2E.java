package io.gitfn.packer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessSource;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.PackageRegistrySettings;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.FunctionImages.Outcome;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.RegistryReads;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.DesiredService;
import io.gitfn.workload.WorkloadSettings;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layered image path on a real node, in a namespace that enforces Pod Security {@code restricted}, where a
 * build Job that runs a container engine could not: the install Job installs a Function's npm or pip dependency in the base image and
 * packs it with gitfn's own image, the Function's image is its source layer on top, pushed from this JVM, and a
 * Deployment of that image by digest answers through its Service. This test drives the parts in the order the
 * controller takes them (RealNodeLayeredE2E and ChartOnRealNodeE2E run the controller itself), and also installs
 * each twice to show the dependency image is the same bytes.
 */
@WithRealNode
class LayeredImageOnRealNodeE2E {

  private static final Logger log = LoggerFactory.getLogger(LayeredImageOnRealNodeE2E.class);
  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
  private static RealNode node;
  private static PackageMirrors mirrors;
  private static BuildSettings builds;
  private static String packer;

  @BeforeAll
  static void pushImagesAndStartTheMirrors(RealNode realNode) throws Exception {
    node = realNode;
    NodeImages images = NodeImages.build();
    node.pushImage(images.archive("nodejs22"), images.reference("nodejs22"));
    node.pushImage(images.archive("python312"), images.reference("python312"));
    node.pushImage(TestBedBinaries.controllerImage(), "gitfn/packer:test");
    packer = node.registry() + "/gitfn/packer:test";
    mirrors = PackageMirrors.start(images.packages(), InetAddress.getByName(node.hostAddress()));
    builds = BuildSettings.defaults()
        .withRegistry(node.registry())
        .withInsecureRegistries(Set.of(node.registry()))
        .withBaseImage(FunctionRuntime.NODEJS22, node.registry() + "/" + images.reference("nodejs22"))
        .withBaseImage(FunctionRuntime.PYTHON312, node.registry() + "/" + images.reference("python312"))
        .withPackageRegistrySecret(NodeGitfn.PACKAGE_REGISTRY_SECRET);
  }

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
    if (mirrors != null) {
      mirrors.close();
    }
  }

  @Test
  void aNodeFunctionWithADependencyIsInstalledPackedAndRunInARestrictedNamespace(KubernetesClient client,
      TestNamespace ns) throws Exception {
    runsLayered(client, ns, TestFunction.inline().named("clock").inNamespace(ns.name())
        .runtime(FunctionRuntime.NODEJS22)
        .code("const ms = require('ms');\nmodule.exports = { main: () => 'layered ' + ms(60000) };\n")
        .dependencies("{\"name\": \"clock\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .build(), mirrors.npmrc(), "layered 1m");
  }

  @Test
  void aPythonFunctionWithAPipDependencyIsInstalledPackedAndRunInARestrictedNamespace(KubernetesClient client,
      TestNamespace ns) throws Exception {
    runsLayered(client, ns, TestFunction.inline().named("py-clock").inNamespace(ns.name())
        .runtime(FunctionRuntime.PYTHON312)
        .code("import six\n\ndef main(event, context):\n    return 'layered ' + six.ensure_text(b'python')\n")
        .dependencies("six==1.17.0\n")
        .build(), mirrors.pipConf(), "layered python");
  }

  /**
   * The path the controller is to take for {@code fn}: the dependency image is missing, the install Job makes it,
   * the source layer goes on top, and a Deployment of the image by digest answers {@code expected}.
   */
  private static void runsLayered(KubernetesClient client, TestNamespace ns, Function fn, String registryConfig,
      String expected) throws Exception {
    client.namespaces().withName(ns.name()).edit(n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      return n;
    });
    NodeGitfn.createBuildSecrets(client, ns.name(), mirrors);
    String name = fn.getMetadata().getName();
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
    FunctionImages images = new FunctionImages(new ImageAssembler(
        RegistryAccess.anonymous(Set.of(node.registry())), "gitfn-test", POOL, Duration.ofSeconds(60)));
    FunctionImages.Request request = new FunctionImages.Request(runtime, ImageName.parse(builds.baseImage(runtime)),
        builds.runtimes().of(runtime).digest(), fn.getSpec().getSource().getInline().getSource(),
        fn.getSpec().getSource().getInline().getDependencies(), null,
        PackageRegistrySettings.digest(runtime, registryConfig),
        new ImageName(node.registry(), ns.name() + "/gitfn/dependencies", "unused"),
        new ImageName(node.registry(), ns.name() + "/" + name, plan.key().tag()));

    Outcome.NeedsDependencies needs = (Outcome.NeedsDependencies) images.build(request);
    ConfigMap source = unowned(BuildlessSource.of(fn, plan, builds).configMap(fn));
    client.resource(source).create();
    String jobName = name + "-dependencies";
    Job job = unowned(DependencyInstallJob.forFunction(fn, jobName, source.getMetadata().getName(),
        needs.base().toString(), needs.dependencyImage().toString(), needs.runtimeImage().toString(),
        needs.runtimePresent(), packer, builds));
    long installing = System.nanoTime();
    client.resource(job).create();
    awaitSucceeded(client, ns.name(), jobName);
    long installed = System.nanoTime();

    // The same inputs installed and packed again, by another Job: the same dependency image, byte for byte.
    ImageName again = needs.dependencyImage().at(needs.dependencyImage().reference() + "-again");
    client.resource(unowned(DependencyInstallJob.forFunction(fn, jobName + "-again", source.getMetadata().getName(),
        needs.base().toString(), again.toString(), needs.runtimeImage().toString(), needs.runtimePresent(), packer,
        builds))).create();
    awaitSucceeded(client, ns.name(), jobName + "-again");
    assertThat(RegistryReads.digest(again)).as("the dependency image installed twice")
        .isEqualTo(RegistryReads.digest(needs.dependencyImage()));

    long pushing = System.nanoTime();
    Outcome.Pushed pushed = (Outcome.Pushed) images.build(request);
    log.info("layered image of {} on the real node: install Job {} ms, source layer and manifest pushed in {} ms"
        + " ({} bytes uploaded, {} layers mounted, {} already there)", runtime.value(),
        (installed - installing) / 1_000_000, (System.nanoTime() - pushing) / 1_000_000,
        pushed.push().bytesUploaded(), pushed.push().blobsMounted(), pushed.push().blobsPresent());
    assertThat(pushed.push().bytesUploaded()).as("a handler, a dependency file and the config")
        .isLessThan(64 * 1024);
    String image = pushed.push().image().registry() + "/" + pushed.push().image().repository() + "@"
        + pushed.push().digest();
    client.resource(unowned(DesiredDeployment.forFunction(fn, image, WorkloadSettings.defaults()))).create();
    client.resource(unowned(DesiredService.forFunction(fn))).create();

    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() -> {
      String clusterIp = client.services().inNamespace(ns.name()).withName(name).get().getSpec().getClusterIP();
      assertThat(FunctionAnswers.get("http://" + clusterIp + "/")).isEqualTo(expected);
    });
    Deployment running = client.apps().deployments().inNamespace(ns.name()).withName(name).get();
    assertThat(running.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).contains("@sha256:");
  }

  /**
   * Waits for the Job to succeed. A pack container that had to try a registry again passes (that is what it is
   * for), but what the host counted is logged, so that a network fault of the node shows in the build's log.
   */
  private static void awaitSucceeded(KubernetesClient client, String namespace, String name) {
    await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
      Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
      Integer failed = job.getStatus() == null ? null : job.getStatus().getFailed();
      assertThat(failed).as(() -> "failed Pods of Job " + name + ": " + logs(client, namespace, name)
          + "\n--- the host's counters:" + node.networkCounters()).isNull();
      assertThat(job.getStatus().getSucceeded()).as("Job %s", name).isEqualTo(1);
    });
    String logs = logs(client, namespace, name);
    if (logs.contains("Warning: ")) {
      log.warn("Job {} succeeded after its pack container tried a registry again: {}\n--- the host's counters:{}",
          name, logs, node.networkCounters());
    }
  }

  private static String logs(KubernetesClient client, String namespace, String job) {
    StringBuilder logs = new StringBuilder();
    for (Pod pod : client.pods().inNamespace(namespace).withLabel("job-name", job).list().getItems()) {
      for (String container : new String[] {"install", DependencyInstallJob.PACK}) {
        try {
          logs.append("\n--- ").append(container).append(":\n")
              .append(client.pods().inNamespace(namespace).withName(pod.getMetadata().getName())
                  .inContainer(container).getLog());
        } catch (RuntimeException e) {
          logs.append("(no log: ").append(e.getMessage()).append(")");
        }
      }
    }
    return logs.toString();
  }

  /** The Function is not in the API server (a running controller would build it its own way): no owner. */
  private static <T extends HasMetadata> T unowned(T object) {
    object.getMetadata().setOwnerReferences(null);
    return object;
  }
}
