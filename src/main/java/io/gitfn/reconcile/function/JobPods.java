package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What holds up a build or install Job that has not finished, from its Pods: one the scheduler cannot place (a node
 * without room for the build profile's requests, a missing Secret the Pod mounts), or a container that cannot start
 * (an image that cannot be pulled, a Secret key it names that does not exist). A Job only counts Pods, so without
 * this BuildReady would say "running" for as long as the Job's deadline.
 */
final class JobPods {

  /** Waiting reasons that do not pass by themselves; {@code ContainerCreating} and {@code PodInitializing} do. */
  private static final Set<String> STUCK = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
      "CreateContainerConfigError", "CreateContainerError");

  private JobPods() {}

  /** Why the Job's live Pods do not run, if one says; empty while they start or run. */
  static Optional<String> holdUp(List<Pod> pods) {
    for (Pod pod : pods) {
      if (pod.getStatus() == null || pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      String name = pod.getMetadata().getName();
      Optional<String> unscheduled = Stream.ofNullable(pod.getStatus().getConditions()).flatMap(List::stream)
          .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
          .findFirst()
          .map(c -> "its Pod " + name + " cannot be scheduled: " + c.getReason() + ": " + c.getMessage());
      if (unscheduled.isPresent()) {
        return unscheduled;
      }
      Optional<String> stuck = Stream.concat(statuses(pod.getStatus().getInitContainerStatuses()),
              statuses(pod.getStatus().getContainerStatuses()))
          .filter(c -> c.getState() != null && c.getState().getWaiting() != null
              && STUCK.contains(c.getState().getWaiting().getReason()))
          .findFirst()
          .map(c -> "its Pod " + name + " cannot start container " + c.getName() + ": "
              + c.getState().getWaiting().getReason()
              + (c.getState().getWaiting().getMessage() == null ? "" : ": " + c.getState().getWaiting().getMessage()));
      if (stuck.isPresent()) {
        return stuck;
      }
    }
    return Optional.empty();
  }

  private static Stream<ContainerStatus> statuses(List<ContainerStatus> statuses) {
    return statuses == null ? Stream.empty() : statuses.stream();
  }
}
