package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.build.DependencyInstallJob;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/**
 * An install Job's end as its Pod shows it: the pack container ended with exit code 0, so the dependency image is
 * in the registry. The kubelet reports that within about a second of the container's exit, and the Job controller
 * marks the Job complete a second or more after that (it batches a Job's Pod updates for a second, then removes the
 * Pod's finalizer and counts it, each a write), so a dependency change goes on this much sooner. The Job's own
 * status stays the record of failures, of the build queue's slots and of clean-up.
 */
final class InstallPods {

  private InstallPods() {}

  /** When a Pod of {@code job} (by its UID, so never a Pod of an earlier Job of the name) packed and pushed. */
  static Optional<Instant> packedAt(Collection<Pod> pods, Job job) {
    String uid = job.getMetadata().getUid();
    if (uid == null) {
      return Optional.empty();
    }
    return pods.stream()
        .filter(pod -> pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null
            && pod.getMetadata().getOwnerReferences() != null
            && pod.getMetadata().getOwnerReferences().stream().anyMatch(ref -> uid.equals(ref.getUid())))
        .flatMap(pod -> pod.getStatus().getContainerStatuses().stream())
        .filter(status -> DependencyInstallJob.PACK.equals(status.getName()))
        .map(ContainerStatus::getState)
        .filter(state -> state != null && state.getTerminated() != null)
        .map(state -> state.getTerminated())
        .filter(ended -> Objects.equals(ended.getExitCode(), 0))
        .flatMap(ended -> finishedAt(ended).stream())
        .findFirst();
  }

  /** When the container ended, to the second as the kubelet says it; empty when it does not say. */
  private static Optional<Instant> finishedAt(ContainerStateTerminated ended) {
    try {
      return Optional.ofNullable(ended.getFinishedAt()).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
