package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Functions on a real node: the controller builds each one's image with a real build Job (buildah in a Pod, its
 * packages from the mirrors on the host), pushes it to the node's registry, and a Pod that pulled it answers
 * through the Function's Service. Nothing leaves the machine.
 */
@WithRealNode
class RealNodeFunctionE2E {

  // A cold build on two cores installs gitfn's runtime packages and the Function's dependencies in the Pod.
  private static final Duration BUILD_AND_ROLL_OUT = Duration.ofMinutes(6);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static PackageMirrors mirrors;
  private static String registry;
  private static KubernetesClient controllerClient;
  private static Controller controller;

  @BeforeAll
  static void startController(RealNode node) throws Exception {
    NodeImages images = NodeImages.build();
    for (String name : new String[] {"nodejs22", "python312", "buildah"}) {
      node.pushImage(images.archive(name), images.reference(name));
    }
    mirrors = PackageMirrors.start(images.packages(), InetAddress.getByName(node.hostAddress()));
    node.installCrds();
    controllerClient = node.newClient();
    registry = node.registry();
    BuildSettings builds = BuildSettings.defaults()
        .withRegistry(registry)
        .withInsecureRegistries(Set.of(registry))
        .withBuilder(ImageBuilder.of(ImageBuilder.Tool.BUILDAH).withImage(registry + "/" + images.reference("buildah")))
        .withBaseImage(FunctionRuntime.NODEJS22, registry + "/" + images.reference("nodejs22"))
        .withBaseImage(FunctionRuntime.PYTHON312, registry + "/" + images.reference("python312"))
        .withPackageRegistrySecret("package-registry");
    controller = Controller.start(controllerClient,
        SourceSettings.defaults(Files.createTempDirectory("gitfn-realnode-mirrors")), WebhookSettings.defaults(),
        ControllerSettings.defaults(), builds, WorkloadSettings.defaults(), "127.0.0.1", 0);
  }

  @AfterAll
  static void stopController() throws Exception {
    controller.close();
    controllerClient.close();
    mirrors.close();
  }

  @Test
  void aNodeFunctionWithAnNpmDependencyIsBuiltAndAnswersThroughItsService(KubernetesClient client, TestNamespace ns)
      throws Exception {
    createSecrets(client, ns);
    Function fn = TestFunction.inline().named("node-hello").inNamespace(ns.name()).uid(null)
        .runtime(FunctionRuntime.NODEJS22)
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

  /** Waits until the Function runs, its image from the build Job, and answers {@code expected} on its Service. */
  private static void assertAnswers(KubernetesClient client, TestNamespace ns, String name, String expected) {
    await().atMost(BUILD_AND_ROLL_OUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
      Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
      assertThat(fn.getStatus()).as("status of %s", name).isNotNull();
      assertThat(fn.getStatus().getConditions()).as("conditions of %s", name)
          .allSatisfy(c -> assertThat(c.getStatus()).as(describe(c)).isEqualTo("True")).hasSize(3);
    });
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
    Job build = client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().stream()
        .filter(j -> j.getMetadata().getName().startsWith(name + "-build-")).findFirst().orElseThrow();
    assertThat(build.getStatus().getSucceeded()).as("the build Job").isEqualTo(1);
    assertThat(fn.getStatus().getImage()).as("the image the build pushed").startsWith(registry + "/");
    String clusterIp = client.services().inNamespace(ns.name()).withName(name).get().getSpec().getClusterIP();
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
        assertThat(get("http://" + clusterIp + "/")).isEqualTo(expected));
  }

  private static void createSecrets(KubernetesClient client, TestNamespace ns) {
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder()
        .withNewMetadata().withName(BuildSettings.DEFAULT_REGISTRY_SECRET).endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withStringData(Map.of(".dockerconfigjson", "{\"auths\":{}}"))
        .build()).create();
    client.secrets().inNamespace(ns.name()).resource(new SecretBuilder()
        .withNewMetadata().withName("package-registry").endMetadata()
        .withStringData(Map.of(".npmrc", mirrors.npmrc(), "pip.conf", mirrors.pipConf()))
        .build()).create();
  }

  private static String describe(Condition condition) {
    return condition.getType() + " " + condition.getReason() + ": " + condition.getMessage();
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
    return response.body();
  }
}
