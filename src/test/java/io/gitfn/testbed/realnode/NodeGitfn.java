package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import io.gitfn.controller.Controller;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * gitfn's controller, in this JVM, running Functions on a real node as an operator would set it up there: the
 * layered builder, whose install Jobs pack with gitfn's own image ({@link TestBedBinaries#controllerImage}), the node
 * images ({@link NodeImages}) in the node's registry as base images, and
 * {@link PackageMirrors} on the node's host address as the Functions' npm and PyPI registry. Functions' own Git
 * sources are checked hourly, so only a webhook brings a push in time; {@link #CONTROLLER_SECRET} verifies those.
 */
public final class NodeGitfn implements AutoCloseable {

  public static final String CONTROLLER_SECRET = "realnode-controller-wide-secret";
  /** The package-registry Secret each namespace needs: {@code .npmrc} and {@code pip.conf} for the mirrors. */
  public static final String PACKAGE_REGISTRY_SECRET = "package-registry";
  /** Where gitfn's own image, which install Jobs pack with, is in the node's registry. */
  private static final String PACKER = "gitfn/packer:test";

  private final RealNode node;
  private final PackageMirrors mirrors;
  private final KubernetesClient client;
  private final Controller controller;

  private final String packageRegistrySecret;

  private NodeGitfn(RealNode node, PackageMirrors mirrors, KubernetesClient client, Controller controller,
      String packageRegistrySecret) {
    this.node = node;
    this.mirrors = mirrors;
    this.client = client;
    this.controller = controller;
    this.packageRegistrySecret = packageRegistrySecret;
  }

  /** Pushes the images, starts the mirrors and the controller. */
  public static NodeGitfn start(RealNode node) throws Exception {
    return start(node, UnaryOperator.identity());
  }

  /** The same, with the node's build settings changed by {@code change} (a dependency cache, say). */
  public static NodeGitfn start(RealNode node, UnaryOperator<BuildSettings> change) throws Exception {
    return start(node, change, UnaryOperator.identity());
  }

  /** The same, with the workload settings changed by {@code workloads} too (the Function profiles' figures, say). */
  public static NodeGitfn start(RealNode node, UnaryOperator<BuildSettings> change,
      UnaryOperator<WorkloadSettings> workloads) throws Exception {
    NodeImages images = NodeImages.build();
    for (String name : NodeImages.RUNTIMES) {
      node.pushImage(images.archive(name), images.reference(name));
    }
    node.pushImage(TestBedBinaries.controllerImage(), PACKER);
    PackageMirrors mirrors = PackageMirrors.start(images.packages(), InetAddress.getByName(node.hostAddress()));
    node.installCrds();
    String registry = node.registry();
    BuildSettings builds = BuildSettings.defaults()
        .withRegistry(registry)
        .withInsecureRegistries(Set.of(registry))
        .withBuilder(ImageBuilder.of(ImageBuilder.Tool.LAYERED).withImage(registry + "/" + PACKER))
        .withBaseImage(FunctionRuntime.NODEJS20, registry + "/" + images.reference("nodejs20"))
        .withBaseImage(FunctionRuntime.NODEJS22, registry + "/" + images.reference("nodejs22"))
        .withBaseImage(FunctionRuntime.NODEJS24, registry + "/" + images.reference("nodejs24"))
        .withBaseImage(FunctionRuntime.PYTHON312, registry + "/" + images.reference("python312"))
        .withPackageRegistrySecret(PACKAGE_REGISTRY_SECRET);
    builds = change.apply(builds);
    KubernetesClient client = node.newClient();
    try {
      Controller controller = Controller.start(client,
          SourceSettings.defaults(Files.createTempDirectory("gitfn-realnode-mirrors")),
          WebhookSettings.defaults().withGlobalSecret(CONTROLLER_SECRET),
          ControllerSettings.defaults().withFunctionSourceInterval(Duration.ofHours(1)), builds,
          workloads.apply(WorkloadSettings.defaults()), "127.0.0.1", 0);
      return new NodeGitfn(node, mirrors, client, controller, builds.packageRegistrySecret());
    } catch (Exception e) {
      client.close();
      mirrors.close();
      throw e;
    }
  }

  /** The registry Secret and the package-registry Secret the install Jobs of a namespace mount. */
  public void prepare(KubernetesClient admin, String namespace) {
    createRegistrySecret(admin, namespace);
    createPackageRegistrySecret(admin, namespace, packageRegistrySecret, mirrors);
  }

  /** {@link BuildSettings#DEFAULT_REGISTRY_SECRET}, for the node's registry, which takes anyone. */
  public static void createRegistrySecret(KubernetesClient admin, String namespace) {
    admin.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata().withName(BuildSettings.DEFAULT_REGISTRY_SECRET).endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withStringData(Map.of(".dockerconfigjson", "{\"auths\":{}}"))
        .build()).create();
  }

  /** A package-registry Secret named {@code name} with {@code .npmrc} and {@code pip.conf} for {@code mirrors}. */
  public static void createPackageRegistrySecret(KubernetesClient admin, String namespace, String name,
      PackageMirrors mirrors) {
    admin.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withStringData(Map.of(".npmrc", mirrors.npmrc(), "pip.conf", mirrors.pipConf()))
        .build()).create();
  }

  /**
   * The Secrets a namespace's builds mount on the real node: {@link BuildSettings#DEFAULT_REGISTRY_SECRET} and
   * {@link #PACKAGE_REGISTRY_SECRET} for {@code mirrors}.
   */
  public static void createBuildSecrets(KubernetesClient admin, String namespace, PackageMirrors mirrors) {
    createRegistrySecret(admin, namespace);
    createPackageRegistrySecret(admin, namespace, PACKAGE_REGISTRY_SECRET, mirrors);
  }

  /** The npm registry and PyPI index the node's builds install from. */
  public PackageMirrors mirrors() {
    return mirrors;
  }

  /** Where forges deliver webhooks: {@code webhookUri().resolve("gitea")}. */
  public URI webhookUri() {
    return controller.webhookUri();
  }

  /** The controller's dashboard, on a free loopback port. */
  public URI dashboardUri() {
    return controller.dashboardUri().orElseThrow();
  }

  public String registry() {
    return node.registry();
  }

  @Override
  public void close() throws Exception {
    try (client; mirrors) {
      controller.close();
    }
  }
}
