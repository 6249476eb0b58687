package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** In cluster mode, workloads behave as on a cluster: Deployments roll out and Jobs complete. */
@WithKubeCluster
class KubeClusterIT {

  @Test
  void deploymentBecomesAvailableOnTheFakeNode(KubernetesClient client, TestNamespace ns) {
    Deployment deployment =
        new DeploymentBuilder()
            .withNewMetadata().withName("web").withNamespace(ns.name()).endMetadata()
            .withNewSpec()
            .withReplicas(2)
            .withNewSelector().withMatchLabels(Map.of("app", "web")).endSelector()
            .withNewTemplate()
            .withNewMetadata().withLabels(Map.of("app", "web")).endMetadata()
            .withSpec(pod("registry.local/web:1", "Always"))
            .endTemplate()
            .endSpec()
            .build();

    client.resource(deployment).create();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Deployment current = client.apps().deployments().inNamespace(ns.name()).withName("web").get();
      assertThat(current.getStatus().getAvailableReplicas()).isEqualTo(2);
      assertThat(current.getStatus().getConditions())
          .anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Available");
            assertThat(c.getStatus()).isEqualTo("True");
          });
    });
    assertThat(client.pods().inNamespace(ns.name()).list().getItems())
        .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo(ClusterComponents.NODE_NAME));
  }

  @Test
  void jobPodCompletesAndTheJobSucceeds(KubernetesClient client, TestNamespace ns) {
    Job job =
        new JobBuilder()
            .withNewMetadata().withName("build").withNamespace(ns.name()).endMetadata()
            .withNewSpec()
            .withBackoffLimit(0)
            .withNewTemplate()
            .withSpec(pod("registry.local/kaniko:1", "Never"))
            .endTemplate()
            .endSpec()
            .build();

    client.resource(job).create();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Job current = client.batch().v1().jobs().inNamespace(ns.name()).withName("build").get();
      assertThat(current.getStatus().getSucceeded()).isEqualTo(1);
      assertThat(current.getStatus().getCompletionTime()).isNotNull();
    });
  }

  private static io.fabric8.kubernetes.api.model.PodSpec pod(String image, String restartPolicy) {
    return new PodSpecBuilder()
        .withRestartPolicy(restartPolicy)
        .addNewContainer().withName("main").withImage(image).endContainer()
        .build();
  }
}
