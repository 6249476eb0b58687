package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Function's Deployment, as {@code kubectl rollout status} judges it: whether the newest ReplicaSet has every
 * replica updated and available, and if not, how far it got.
 *
 * @param image the image of its first container: the Function's
 * @param state {@code Complete}, {@code Rolling out}, {@code Failed} (its progress deadline passed) or
 *     {@code Waiting} (the controller-manager has not seen its newest spec yet)
 * @param message what {@code kubectl rollout status} would print, or the Progressing condition's message
 */
public record DeploymentRollout(String name, String image, int desired, int updated, int ready, int available,
    String state, String message) {

  static DeploymentRollout of(Deployment deployment) {
    DeploymentStatus status = deployment.getStatus() == null ? new DeploymentStatus() : deployment.getStatus();
    int desired = deployment.getSpec() == null || deployment.getSpec().getReplicas() == null ? 1
        : deployment.getSpec().getReplicas();
    int updated = count(status.getUpdatedReplicas());
    int ready = count(status.getReadyReplicas());
    int available = count(status.getAvailableReplicas());
    int total = count(status.getReplicas());
    List<DeploymentCondition> conditions = status.getConditions() == null ? List.of() : status.getConditions();
    Optional<DeploymentCondition> progressing = conditions.stream()
        .filter(c -> "Progressing".equals(c.getType())).findFirst();
    String state;
    String message;
    Long generation = deployment.getMetadata().getGeneration();
    if (generation != null && !Objects.equals(generation, status.getObservedGeneration())) {
      state = "Waiting";
      message = "the controller-manager has not seen its newest spec yet";
    } else if (progressing.filter(c -> "ProgressDeadlineExceeded".equals(c.getReason())).isPresent()) {
      state = "Failed";
      message = Objects.requireNonNullElse(progressing.get().getMessage(), "its progress deadline passed");
    } else if (updated < desired) {
      state = "Rolling out";
      message = updated + " of " + desired + " new replicas have been updated";
    } else if (total > updated) {
      state = "Rolling out";
      message = (total - updated) + " old replicas are pending termination";
    } else if (available < updated) {
      state = "Rolling out";
      message = available + " of " + updated + " updated replicas are available";
    } else {
      state = "Complete";
      message = "every replica runs the newest version";
    }
    return new DeploymentRollout(deployment.getMetadata().getName(), image(deployment), desired, updated, ready,
        available, state, message);
  }

  /** The CSS class of its badge. */
  public String css() {
    return switch (state) {
      case "Complete" -> "ready";
      case "Failed" -> "failed";
      default -> "reconciling";
    };
  }

  private static String image(Deployment deployment) {
    return Optional.ofNullable(deployment.getSpec()).map(s -> s.getTemplate()).map(t -> t.getSpec())
        .map(p -> p.getContainers()).filter(c -> !c.isEmpty()).map(c -> c.get(0).getImage()).orElse(null);
  }

  private static int count(Integer value) {
    return value == null ? 0 : value;
  }
}
