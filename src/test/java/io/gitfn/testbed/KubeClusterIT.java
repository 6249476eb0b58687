package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.ImageBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * In cluster mode, workloads behave as on a cluster: Deployments roll out and Jobs complete, and build Pods fail
 * or take their time when {@link KwokBuildStages} asks.
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

  @ParameterizedTest
  @EnumSource(value = ImageBuilder.Tool.class, names = {"KANIKO", "BUILDAH"})
  void aBuildPodWhoseBaseImageIsUnderRegistryInvalidFailsAsItsBuilderWould(ImageBuilder.Tool tool,
      KubernetesClient client, TestNamespace ns) {
    Function fn = TestFunction.inline().named("broken").inNamespace(ns.name())
        .runtimeImageOverride(KwokBuildStages.FAILING_REGISTRY + "/broken:1").build();
    BuildSettings settings = BuildSettings.defaults().withBuilder(ImageBuilder.of(tool));
    Job job = BuildJobSpec.forFunction(fn, ContentKey.ofInline(fn, settings), "broken-context", settings);
    job.getMetadata().setOwnerReferences(List.of()); // no Function here: the garbage collector would take the Job
    String name = job.getMetadata().getName();

    client.resource(job).create();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Job current = client.batch().v1().jobs().inNamespace(ns.name()).withName(name).get();
      assertThat(current.getStatus().getFailed()).isEqualTo(1);
      assertThat(current.getStatus().getSucceeded()).isIn(null, 0);
    });
    Pod pod = client.pods().inNamespace(ns.name()).withLabel("job-name", name).list().getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(pod.getStatus().getContainerStatuses()).singleElement()
        .extracting(c -> c.getState().getTerminated()).satisfies(t -> {
          assertThat(t.getExitCode()).isEqualTo(1);
          assertThat(t.getReason()).isEqualTo("Error");
          assertThat(t.getMessage()).startsWith(tool == ImageBuilder.Tool.KANIKO
                  ? "error building image: unable to pull base image registry.invalid/broken:1: "
                  : "Error: creating build container: initializing source docker://registry.invalid/broken:1: ")
              .contains("https://registry.invalid/v2/");
        });
  }

  @Test
  void aBuildPodWithADurationRunsThatLongThenSucceeds(KubernetesClient client, TestNamespace ns) {
    assertThat(KwokBuildStages.buildDuration(Duration.ofSeconds(4)))
        .containsExactly(Map.entry(KwokBuildStages.BUILD_DURATION, "4000ms"));
    client.resource(job(ns, "slow", KwokBuildStages.buildDuration(Duration.ofSeconds(4)),
        "--build-arg=base_image=registry.local/node:1")).create();

    await().atMost(Duration.ofSeconds(60)).until(() -> "Running".equals(phase(client, ns, "slow")));
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
        .until(() -> "Running".equals(phase(client, ns, "slow")));
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
        client.batch().v1().jobs().inNamespace(ns.name()).withName("slow").get().getStatus().getSucceeded())
        .isEqualTo(1));
    ContainerStateTerminated done = client.pods().inNamespace(ns.name()).withLabel("job-name", "slow").list()
        .getItems().get(0).getStatus().getContainerStatuses().get(0).getState().getTerminated();
    // Both are whole seconds, so four seconds of running may show as three.
    assertThat(Duration.between(Instant.parse(done.getStartedAt()), Instant.parse(done.getFinishedAt())))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
  }

  private static String phase(KubernetesClient client, TestNamespace ns, String job) {
    return client.pods().inNamespace(ns.name()).withLabel("job-name", job).list().getItems().stream()
        .map(p -> p.getStatus().getPhase()).findFirst().orElse(null);
  }

  /** A Job shaped like gitfn's kaniko build: its arguments and the build Pod's annotations. */
  private static Job job(TestNamespace ns, String name, Map<String, String> annotations, String... args) {
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(ns.name()).endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withNewTemplate()
        .withNewMetadata().withAnnotations(annotations).endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer().withName("executor").withImage("registry.local/kaniko:1").withArgs(args).endContainer()
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
