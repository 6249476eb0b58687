package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.workload.DesiredDeployment;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Why a rollout is not done yet, from its new Pods: a buildless Pod whose dependency install failed, a container
 * that crash-loops, cannot pull its image, or is not Ready. The Deployment's own status only counts Pods, so a Function whose new version cannot start would say no
 * more than "rolling out" until the progress deadline.
 */
final class NewPods {

  // Lines of an install's output that change from one run to the next; quoting them would write status each time.
  private static final Pattern VOLATILE = Pattern.compile(".*(_logs/|complete log of this run).*");
  private static final int QUOTED_LINES = 6;

  private NewPods() {}

  /** The Pods of the Deployment, read from the API server; empty when the list fails (the next pass asks again). */
  static List<Pod> of(KubernetesClient client, Deployment deployment) {
    try {
      return client.pods().inNamespace(deployment.getMetadata().getNamespace())
          .withLabels(deployment.getSpec().getSelector().getMatchLabels()).list().getItems();
    } catch (KubernetesClientException e) {
      return List.of(); // the condition still says the rollout runs
    }
  }

  /**
   * A new buildless Pod whose init container failed to install the dependencies: its name, the exit code and the
   * last lines of the install's output (the termination message). Empty when none failed.
   */
  static Optional<String> installFailure(Deployment deployment, List<Pod> pods) {
    for (Pod pod : current(deployment, pods)) {
      if (pod.getStatus().getInitContainerStatuses() == null) {
        continue;
      }
      for (ContainerStatus init : pod.getStatus().getInitContainerStatuses()) {
        if (!init.getName().equals(BuildlessDeployment.INSTALL)) {
          continue;
        }
        ContainerStateTerminated ended = failed(init.getState()).or(() -> failed(init.getLastState())).orElse(null);
        if (ended != null) {
          return Optional.of("the dependency install of new Pod " + pod.getMetadata().getName()
              + " failed: init container " + BuildlessDeployment.INSTALL + " exited with code " + ended.getExitCode()
              + quote(ended.getMessage()) + ". Its log: `kubectl logs -n " + pod.getMetadata().getNamespace() + " "
              + pod.getMetadata().getName() + " -c " + BuildlessDeployment.INSTALL + "`");
        }
      }
    }
    return Optional.empty();
  }

  /** Restarts in CrashLoopBackOff after which a new Pod counts as crash-looping: one crash may be a fluke. */
  static final int CRASH_LOOP_RESTARTS = 3;

  /**
   * A new Pod whose Function container keeps crashing: in CrashLoopBackOff after {@value #CRASH_LOOP_RESTARTS}
   * restarts or more. Empty when none does.
   */
  static Optional<String> crashLoop(Deployment deployment, List<Pod> pods) {
    for (Pod pod : current(deployment, pods)) {
      if (pod.getStatus().getContainerStatuses() == null) {
        continue;
      }
      for (ContainerStatus container : pod.getStatus().getContainerStatuses()) {
        boolean backingOff = container.getState() != null && container.getState().getWaiting() != null
            && "CrashLoopBackOff".equals(container.getState().getWaiting().getReason());
        if (container.getName().equals(DesiredDeployment.CONTAINER) && backingOff
            && container.getRestartCount() != null && container.getRestartCount() >= CRASH_LOOP_RESTARTS) {
          // "at least", not the count: a message that changed with every restart would be a write each time.
          return Optional.of("its new Pod " + pod.getMetadata().getName() + " keeps crashing: restarted at least "
              + CRASH_LOOP_RESTARTS + " times, now " + describe(container) + ". Its log: `kubectl logs -n "
              + pod.getMetadata().getNamespace() + " " + pod.getMetadata().getName() + " --previous`");
        }
      }
    }
    return Optional.empty();
  }

  /** What holds up the rollout, from the Pods that run the Deployment's current version. */
  static Optional<String> whyNotReady(Deployment deployment, List<Pod> pods) {
    for (Pod pod : current(deployment, pods)) {
      Optional<String> unscheduled = unscheduled(pod);
      if (unscheduled.isPresent()) {
        return unscheduled;
      }
      if (pod.getStatus().getContainerStatuses() == null) {
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

  /** Why the scheduler has not placed the Pod, such as a claim it mounts that does not exist, if it has said. */
  private static Optional<String> unscheduled(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .findFirst()
        .map(c -> "its new Pod " + pod.getMetadata().getName() + " cannot be scheduled: " + c.getReason() + ": "
            + c.getMessage());
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

  /**
   * The live Pods of the Deployment's current version: they run its image and, buildless, mount its source
   * ConfigMap (every buildless version runs the same base image). The spec's image is compared, not the status's,
   * which may be normalised.
   */
  private static List<Pod> current(Deployment deployment, List<Pod> pods) {
    PodSpec template = deployment.getSpec().getTemplate().getSpec();
    String image = image(template.getContainers());
    String source = source(template);
    return pods.stream()
        .filter(pod -> pod.getStatus() != null && pod.getMetadata().getDeletionTimestamp() == null)
        .filter(pod -> image.equals(image(pod.getSpec().getContainers())) && source.equals(source(pod.getSpec())))
        .toList();
  }

  private static String source(PodSpec spec) {
    return spec.getVolumes() == null ? "" : spec.getVolumes().stream()
        .filter(v -> v.getName().equals(BuildlessDeployment.SOURCE_VOLUME) && v.getConfigMap() != null)
        .map(v -> v.getConfigMap().getName()).findFirst().orElse("");
  }

  private static Optional<ContainerStateTerminated> failed(ContainerState state) {
    return Optional.ofNullable(state).map(ContainerState::getTerminated)
        .filter(t -> t.getExitCode() != null && t.getExitCode() != 0);
  }

  private static String quote(String message) {
    if (message == null || message.isBlank()) {
      return "";
    }
    List<String> lines = message.strip().lines().map(String::strip)
        .filter(line -> !line.isEmpty() && !VOLATILE.matcher(line).matches()).toList();
    return ": " + String.join(" | ", lines.subList(Math.max(0, lines.size() - QUOTED_LINES), lines.size()));
  }

  private static String image(List<Container> containers) {
    return containers.stream().filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst()
        .map(Container::getImage).orElse("");
  }
}
