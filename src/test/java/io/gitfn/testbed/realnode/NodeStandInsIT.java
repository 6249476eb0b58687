package io.gitfn.testbed.realnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestNamespace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What Kyma's Function suites run on the node besides Functions, with stand-ins for what this machine cannot
 * download (src/test/kyma/serverless/SUITES.md).
 */
@WithRealNode
class NodeStandInsIT {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * The tracing suite's {@code http-server} Deployment as Kyma writes it: image {@code nginx}, pulled on every
   * start. containerd takes it from the node's registry, where the stand-in was pushed as
   * {@code library/nginx:latest}, and the Pod answers {@code GET /} on port 80.
   */
  @Test
  void aDeploymentOfNginxPullsTheStandInAsDockerHubsAndAnswersOnPort80(
      KubernetesClient client, TestNamespace ns, RealNode node) {
    NodeImages images = NodeImages.build();
    node.pushImage(images.archive(NodeImages.HTTP_SERVER), "library/nginx:latest");
    Map<String, String> labels = Map.of("component", "http-server");

    client.apps().deployments().inNamespace(ns.name()).resource(new DeploymentBuilder()
            .withNewMetadata().withName("http-server").withLabels(labels).endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .withNewSelector().withMatchLabels(labels).endSelector()
            .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
            .withTerminationGracePeriodSeconds(1L)
            .addNewContainer()
            .withName("http-server")
            .withImage("nginx")
            .withImagePullPolicy("Always")
            .addNewPort().withContainerPort(80).endPort()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build())
        .create();

    Pod pod = await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> {
      List<Pod> pods = client.pods().inNamespace(ns.name()).withLabels(labels).list().getItems();
      return pods.size() == 1 && pods.get(0).getStatus().getPodIP() != null
          && Boolean.TRUE.equals(pods.get(0).getStatus().getContainerStatuses().get(0).getStarted())
          ? pods.get(0) : null;
    }, p -> p != null);
    assertThat(pod.getStatus().getContainerStatuses().get(0).getImageID())
        .as("the image containerd pulled for docker.io, by its digest in the node's registry")
        .isEqualTo(Containerd.DOCKER_HUB + "/library/nginx@"
            + images.manifest().at("/images/" + NodeImages.HTTP_SERVER + "/manifestDigest").asText());
    // http.server binds a moment after the container starts.
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
        assertThat(status("http://" + pod.getStatus().getPodIP() + "/")).isBetween(200, 299));
  }

  private static int status(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
