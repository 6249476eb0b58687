package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.workload.DesiredDeployment;
import java.util.List;
import java.util.Optional;

/**
 * Why a rollout is not done yet, from its new Pods: a container that crash-loops, cannot pull its image, or is not
 * Ready. The Deployment's own status only counts Pods, so a Function whose new version cannot start would say no
 * more than "rolling out" until the progress deadline.
 */
final class NewPods {

  private NewPods() {}

  /** What holds up the rollout, read from the API server; empty when nothing is known yet or the list fails. */
  static Optional<String> whyNotReady(KubernetesClient client, Deployment deployment) {
    try {
      List<Pod> pods = client.pods().inNamespace(deployment.getMetadata().getNamespace())
          .withLabels(deployment.getSpec().getSelector().getMatchLabels()).list().getItems();
      return whyNotReady(deployment, pods);
    } catch (KubernetesClientException e) {
      return Optional.empty(); // the condition still says the rollout runs; the next pass asks again
    }
  }

  /** What holds up the rollout, from the Pods that run the Deployment's current image. */
  static Optional<String> whyNotReady(Deployment deployment, List<Pod> pods) {
    String image = image(deployment.getSpec().getTemplate().getSpec().getContainers());
    for (Pod pod : pods) {
      // A Pod of the current template runs its image; the status's image name may be normalised, the spec's not.
      if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
          || pod.getMetadata().getDeletionTimestamp() != null || !image.equals(image(pod.getSpec().getContainers()))) {
        continue;
      }
      for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
        if (container.getName().equals(DesiredDeployment.CONTAINER) && !Boolean.TRUE.equals(container.getReady())) {
          return Optional.of("its new Pod " + pod.getMetadata().getName() + " is not Ready: " + describe(container)
              + ". Its log: `kubectl logs -n " + pod.getMetadata().getNamespace() + " " + pod.getMetadata().getName()
              + " --previous`");
        }
      }
    }
    return Optional.empty();
  }

  // Only what stays the same from one restart to the next: a message that changed with every back-off would be a
  // status write and an Event each time.
  private static String describe(ContainerStatus container) {
    StringBuilder text = new StringBuilder();
    if (container.getState() != null && container.getState().getWaiting() != null) {
      text.append(container.getState().getWaiting().getReason());
    } else if (container.getState() != null && container.getState().getRunning() != null) {
      text.append("running, not passing its readiness probe yet");
    } else {
      text.append("not running");
    }
    if (container.getLastState() != null && container.getLastState().getTerminated() != null) {
      var ended = container.getLastState().getTerminated();
      text.append("; it last exited with code ").append(ended.getExitCode());
      if (ended.getReason() != null) {
        text.append(" (").append(ended.getReason()).append(')');
      }
    }
    return text.toString();
  }

  private static String image(List<Container> containers) {
    return containers.stream().filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst()
        .map(Container::getImage).orElse("");
  }
}
