package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessDeployment;
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
  void aNewPodCrashLoopsOnceItBacksOffAfterThreeRestartsAndAnOldOneNever() {
    Pod crashing = pod("orders-new", "registry.local:5000/shop/orders:new", false, "CrashLoopBackOff", 1);
    Pod oldCrashing = pod("orders-old", "registry.local:5000/shop/orders:old", false, "CrashLoopBackOff", 1);

    assertThat(NewPods.crashLoop(deployment, List.of(oldCrashing, crashing))).hasValue("its new Pod orders-new keeps"
        + " crashing: restarted at least 3 times, now CrashLoopBackOff; it last exited with code 1 (Error). Its log:"
        + " `kubectl logs -n shop orders-new --previous`");
    assertThat(NewPods.crashLoop(deployment, List.of(oldCrashing))).isEmpty();
    Pod firstCrash = new PodBuilder(crashing).editStatus().editFirstContainerStatus().withRestartCount(1)
        .endContainerStatus().endStatus().build();
    assertThat(NewPods.crashLoop(deployment, List.of(firstCrash))).as("one crash may be a fluke").isEmpty();
  }

  @Test
  void aNewPodTheSchedulerCannotPlaceIsNamedWithTheSchedulersWords() {
    Pod pending = new PodBuilder().withNewMetadata().withName("orders-new").withNamespace("shop").endMetadata()
        .withNewSpec().addNewContainer().withName(DesiredDeployment.CONTAINER)
        .withImage("registry.local:5000/shop/orders:new").endContainer().endSpec()
        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
        .withReason("Unschedulable").withMessage("0/1 nodes are available: persistentvolumeclaim"
            + " \"gitfn-dependencies\" not found.").endCondition().endStatus().build();

    assertThat(NewPods.whyNotReady(deployment, List.of(pending))).hasValue("its new Pod orders-new cannot be"
        + " scheduled: Unschedulable: 0/1 nodes are available: persistentvolumeclaim \"gitfn-dependencies\" not"
        + " found.");
  }

  @Test
  void podsOfOtherImagesAndReadyPodsSayNothing() {
    Pod old = pod("orders-old", "registry.local:5000/shop/orders:old", false, "CrashLoopBackOff", 1);
    Pod ready = pod("orders-new", "registry.local:5000/shop/orders:new", true, null, null);

    assertThat(NewPods.whyNotReady(deployment, List.of(old, ready))).isEmpty();
  }

  @Test
  void aBuildlessPodWhoseInstallFailedIsNamedWithTheExitCodeAndTheEndOfItsOutput() {
    Function fn = TestFunction.inline().build();
    Deployment buildless = BuildlessDeployment.forFunction(fn, "orders-src-2222222222", BuildSettings.defaults(),
        WorkloadSettings.defaults());
    String image = buildless.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    Pod old = buildlessPod("orders-old", image, "orders-src-1111111111", 1, "npm error 404 old");
    Pod failing = buildlessPod("orders-new", image, "orders-src-2222222222", 1, """
        npm error code E404
        npm error 404 Not Found - GET http://10.199.0.1:4873/no-such-package
        npm error A complete log of this run can be found in: /gitfn-home/.npm/_logs/2026-11-25T21_00_00Z-debug-0.log
        gitfn: installing the Function's dependencies from package.json (no package-lock.json) failed with exit code 1
        """);

    assertThat(NewPods.installFailure(buildless, List.of(old, failing))).hasValue("the dependency install of new Pod"
        + " orders-new failed: init container install exited with code 1: npm error code E404 | npm error 404 Not"
        + " Found - GET http://10.199.0.1:4873/no-such-package | gitfn: installing the Function's dependencies from"
        + " package.json (no package-lock.json) failed with exit code 1. Its log: `kubectl logs -n shop orders-new -c"
        + " install`");
    // The old version's Pods are not the rollout's, though they run the same base image.
    assertThat(NewPods.installFailure(buildless, List.of(old))).isEmpty();
    assertThat(NewPods.installFailure(deployment, List.of(failing))).isEmpty();
  }

  private static Pod buildlessPod(String name, String image, String source, int exitCode, String message) {
    var install = new ContainerStatusBuilder().withName(BuildlessDeployment.INSTALL).withImage(image).withReady(false)
        .withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState()
        .withNewLastState().withNewTerminated().withExitCode(exitCode).withReason("Error").withMessage(message)
        .endTerminated().endLastState().build();
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("shop").endMetadata()
        .withNewSpec().addNewContainer().withName(DesiredDeployment.CONTAINER).withImage(image).endContainer()
        .addNewVolume().withName(BuildlessDeployment.SOURCE_VOLUME).withNewConfigMap().withName(source).endConfigMap()
        .endVolume().endSpec()
        .withNewStatus().withInitContainerStatuses(install).endStatus().build();
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
