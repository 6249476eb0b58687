package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.DependencyInstallJob;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When an install Job's Pod says its dependency image is pushed, and which Functions its moves wake: the Pod's
 * pack container ended with exit code 0, in a Pod of that very Job.
 */
class InstallPodsTest {

  private static final Job JOB = new JobBuilder().withNewMetadata().withName("gitfn-deps-1").withNamespace("shop")
      .withUid("job-2").addToOwnerReferences(owner("Function", "orders"), owner("Function", "billing"))
      .endMetadata().build();

  @Test
  void aPodWhosePackContainerEndedWithZeroHasPackedAtItsEnd() {
    Pod pod = pod("job-2", terminated(BuildlessDeployment.INSTALL, 0), terminated(DependencyInstallJob.PACK, 0));

    assertThat(InstallPods.packedAt(List.of(pod), JOB)).contains(Instant.parse("2026-11-29T03:00:07Z"));
  }

  @Test
  void aPackContainerStillWaitingForTheInstallHasNotPacked() {
    Pod pod = pod("job-2", terminated(BuildlessDeployment.INSTALL, 0), new ContainerStatusBuilder()
        .withName(DependencyInstallJob.PACK).withNewState().withNewRunning().endRunning().endState().build());

    assertThat(InstallPods.packedAt(List.of(pod), JOB)).isEmpty();
  }

  @Test
  void aPackContainerThatFailedHasNotPacked() {
    Pod pod = pod("job-2", terminated(BuildlessDeployment.INSTALL, 1), terminated(DependencyInstallJob.PACK, 1));

    assertThat(InstallPods.packedAt(List.of(pod), JOB)).isEmpty();
  }

  @Test
  void aPodOfAnEarlierJobOfTheSameNameDoesNotCount() {
    Pod earlier = pod("job-1", terminated(BuildlessDeployment.INSTALL, 0), terminated(DependencyInstallJob.PACK, 0));

    assertThat(InstallPods.packedAt(List.of(earlier), JOB)).isEmpty();
  }

  @Test
  void aPodWakesEveryFunctionThatOwnsItsJobAndNoneWhileTheJobIsNotCached() {
    Pod pod = pod("job-2", terminated(DependencyInstallJob.PACK, 0));
    Map<ResourceID, Job> cached = Map.of(new ResourceID("gitfn-deps-1", "shop"), JOB);

    assertThat(InstallInformers.waitingFor(pod, id -> Optional.ofNullable(cached.get(id))))
        .containsExactlyInAnyOrder(new ResourceID("orders", "shop"), new ResourceID("billing", "shop"));
    assertThat(InstallInformers.waitingFor(pod, id -> Optional.empty())).isEmpty();
  }

  private static Pod pod(String jobUid, ContainerStatus... statuses) {
    return new PodBuilder().withNewMetadata().withName("gitfn-deps-1-x").withNamespace("shop")
        .addToOwnerReferences(new OwnerReferenceBuilder().withKind("Job").withName("gitfn-deps-1").withUid(jobUid)
            .build())
        .endMetadata().withNewStatus().withContainerStatuses(statuses).endStatus().build();
  }

  private static ContainerStatus terminated(String name, int exitCode) {
    return new ContainerStatusBuilder().withName(name).withNewState().withNewTerminated().withExitCode(exitCode)
        .withFinishedAt("2026-11-29T03:00:07Z").endTerminated().endState().build();
  }

  private static io.fabric8.kubernetes.api.model.OwnerReference owner(String kind, String name) {
    return new OwnerReferenceBuilder().withKind(kind).withName(name).withUid(name + "-uid").build();
  }
}
