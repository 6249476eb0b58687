package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.function.TestFunction;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.WorkloadSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

class NewPodsTest {

  private final Deployment deployment = DesiredDeployment.forFunction(TestFunction.inline().build(),
      "registry.local:5000/shop/orders:new", WorkloadSettings.defaults());

  @Test
  void aCrashLoopingPodOfTheNewImageIsNamedWithItsReasonAndLastExitCode() {
    Pod old = pod("orders-old", "registry.local:5000/shop/orders:old", true, null, null);
    Pod crashing = pod("orders-new", "registry.local:5000/shop/orders:new", false, "CrashLoopBackOff", 1);

    assertThat(NewPods.whyNotReady(deployment, List.of(old, crashing))).hasValue("its new Pod orders-new is not"
        + " Ready: CrashLoopBackOff; it last exited with code 1 (Error). Its log: `kubectl logs -n shop orders-new"
        + " --previous`");
  }

  @Test
  void podsOfOtherImagesAndReadyPodsSayNothing() {
    Pod old = pod("orders-old", "registry.local:5000/shop/orders:old", false, "CrashLoopBackOff", 1);
    Pod ready = pod("orders-new", "registry.local:5000/shop/orders:new", true, null, null);

    assertThat(NewPods.whyNotReady(deployment, List.of(old, ready))).isEmpty();
  }

  private static Pod pod(String name, String image, boolean ready, String waiting, Integer lastExit) {
    var status = new ContainerStatusBuilder().withName(DesiredDeployment.CONTAINER).withImage(image).withReady(ready)
        .withRestartCount(lastExit == null ? 0 : 3);
    if (waiting != null) {
      status.withNewState().withNewWaiting().withReason(waiting).withMessage("back-off 40s").endWaiting().endState();
    } else {
      status.withNewState().withNewRunning().endRunning().endState();
    }
    if (lastExit != null) {
      status.withNewLastState().withNewTerminated().withExitCode(lastExit).withReason("Error").endTerminated()
          .endLastState();
    }
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("shop").endMetadata()
        .withNewSpec().addNewContainer().withName(DesiredDeployment.CONTAINER).withImage(image).endContainer().endSpec()
        .withNewStatus().withContainerStatuses(status.build()).endStatus().build();
  }
}
