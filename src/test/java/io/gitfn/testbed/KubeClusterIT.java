package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.Labels;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.registry.ImageName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In cluster mode, workloads behave as on a cluster: Deployments roll out and Jobs complete, and install Jobs' Pods
 * push what their pack container would, take their time and fail when {@link KwokLayeredBuilds} is asked to.
 */
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
            .withSpec(pod("registry.local/job:1", "Never"))
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

  @Test
  void anInstallPodRunsUntilItsPushIsInTheRegistryAndItsDurationIsOverThenItsJobSucceeds(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    KwokLayeredBuilds builds = bed.layeredBuilds();
    String registry = builds.registry().address();
    ImageName target = ImageName.parse(registry + "/" + ns.name() + "/gitfn-deps:slow");
    client.resource(install(ns, "slow", KwokBuildStages.buildDuration(Duration.ofSeconds(4)), registry, target))
        .create();

    await().atMost(Duration.ofSeconds(60)).until(() -> "Running".equals(phase(client, ns, "slow")));
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
        .until(() -> "Running".equals(phase(client, ns, "slow")));
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
        client.batch().v1().jobs().inNamespace(ns.name()).withName("slow").get().getStatus().getSucceeded())
        .isEqualTo(1));
    Pod pod = client.pods().inNamespace(ns.name()).withLabel("job-name", "slow").list().getItems().get(0);
    assertThat(pod.getStatus().getContainerStatuses()).hasSize(2)
        .allSatisfy(c -> assertThat(c.getState().getTerminated().getExitCode()).isZero());
    assertThat(RegistryReads.layerDigests(RegistryReads.manifest(target))).as("what its pack container pushes")
        .isNotEmpty();
  }

  @Test
  void anInstallOfAPackageThatDoesNotExistFailsWithNpmsOwnLineAndPushesNothing(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) {
    String registry = bed.layeredBuilds().registry().address();
    ImageName target = ImageName.parse(registry + "/" + ns.name() + "/gitfn-deps:missing");
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("missing").withNamespace(ns.name())
        .endMetadata().addToData("package.json", KwokLayeredBuilds.MISSING_DEPENDENCIES).build()).create();
    client.resource(install(ns, "missing", Map.of(), registry, target)).create();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
        client.batch().v1().jobs().inNamespace(ns.name()).withName("missing").get().getStatus().getFailed())
        .isEqualTo(1));
    Pod pod = client.pods().inNamespace(ns.name()).withLabel("job-name", "missing").list().getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getContainerStatuses())
        .filteredOn(c -> c.getName().equals(BuildlessDeployment.INSTALL)).singleElement()
        .extracting(c -> c.getState().getTerminated()).satisfies(t -> {
          assertThat(t.getExitCode()).isEqualTo(1);
          assertThat(t.getMessage()).contains("npm error 404 Not Found - GET https://registry.npmjs.org/"
              + KwokLayeredBuilds.MISSING_PACKAGE);
        });
    assertThatThrownBy(() -> RegistryReads.manifest(target)).as("nothing pushed")
        .hasMessageContaining("but was: 404");
  }

  private static String phase(KubernetesClient client, TestNamespace ns, String job) {
    return client.pods().inNamespace(ns.name()).withLabel("job-name", job).list().getItems().stream()
        .map(p -> p.getStatus().getPhase()).findFirst().orElse(null);
  }

  /** A Job shaped like gitfn's install Job, as far as the test bed reads it: its labels and its two containers, which
   * start together. */
  private static Job install(TestNamespace ns, String name, Map<String, String> annotations, String registry,
      ImageName target) {
    Map<String, String> labels = Map.of(Labels.RESOURCE, DependencyInstallJob.RESOURCE);
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(ns.name()).withLabels(labels).endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withNewTemplate()
        .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer().withName(BuildlessDeployment.INSTALL).withImage(registry + "/" + OciRegistry.NODE_BASE)
        .endContainer()
        .addNewContainer().withName(DependencyInstallJob.PACK).withImage("registry.local/gitfn:1")
        .withArgs("pack", "--runtime", "nodejs22", "--installed", "/gitfn/app",
            "--base", registry + "/" + OciRegistry.NODE_BASE, "--runtime-image", registry + "/" + ns.name()
                + "/gitfn-runtime:" + name, "--to", target.toString(), "--insecure-registry", registry)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static io.fabric8.kubernetes.api.model.PodSpec pod(String image, String restartPolicy) {
    return new PodSpecBuilder()
        .withRestartPolicy(restartPolicy)
        .addNewContainer().withName("main").withImage(image).endContainer()
        .build();
  }
}
