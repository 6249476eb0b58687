package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Job's Pods say what holds it up: the scheduler's refusal (the real node's, when an install Job found no room on
 * two cores), or a container that cannot start. Pods that start or run say nothing, so the message stays the same
 * from one pass to the next.
 */
class JobPodsTest {

  @Test
  void aPodTheSchedulerCannotPlaceSaysWhy() {
    Pod pending = new PodBuilder().withNewMetadata().withName("gitfn-deps-abc-x1").endMetadata()
        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
        .withReason("Unschedulable").withMessage("0/1 nodes are available: 1 Insufficient cpu.").endCondition()
        .endStatus().build();

    assertThat(JobPods.holdUp(List.of(pending))).contains("its Pod gitfn-deps-abc-x1 cannot be scheduled:"
        + " Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.");
  }

  @Test
  void anInitContainerWhoseImageCannotBePulledSaysSo() {
    Pod pulling = new PodBuilder().withNewMetadata().withName("hello-build-1").endMetadata()
        .withNewStatus().withPhase("Pending")
        .withInitContainerStatuses(new ContainerStatusBuilder().withName("install").withNewState().withNewWaiting()
            .withReason("ImagePullBackOff").withMessage("Back-off pulling image \"registry.invalid/node\"")
            .endWaiting().endState().build())
        .endStatus().build();

    assertThat(JobPods.holdUp(List.of(pulling))).contains("its Pod hello-build-1 cannot start container install:"
        + " ImagePullBackOff: Back-off pulling image \"registry.invalid/node\"");
  }

  @Test
  void podsThatStartOrRunSayNothing() {
    Pod creating = new PodBuilder().withNewMetadata().withName("a").endMetadata().withNewStatus()
        .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
        .withContainerStatuses(new ContainerStatusBuilder().withName("pack").withNewState().withNewWaiting()
            .withReason("PodInitializing").endWaiting().endState().build())
        .endStatus().build();
    Pod running = new PodBuilder().withNewMetadata().withName("b").endMetadata().withNewStatus()
        .withContainerStatuses(new ContainerStatusBuilder().withName("pack").withNewState().withNewRunning()
            .endRunning().endState().build())
        .endStatus().build();

    assertThat(JobPods.holdUp(List.of(creating, running))).isEmpty();
  }
}
