package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Kubernetes-convention conditions: one per type, with a transition time that moves only when the status does. */
final class Conditions {

  private Conditions() {}

  /** Sets a condition; returns true when its status, reason or message changed. */
  static boolean set(List<Condition> conditions, String type, String status, String reason, String message,
      Long generation, Instant now) {
    Optional<Condition> current = find(conditions, type);
    if (current.isPresent()
        && current.get().getStatus().equals(status)
        && Objects.equals(current.get().getReason(), reason)
        && Objects.equals(current.get().getMessage(), message)) {
      current.get().setObservedGeneration(generation);
      return false;
    }
    String transition = current.filter(c -> c.getStatus().equals(status))
        .map(Condition::getLastTransitionTime).orElse(now.toString());
    Condition condition = new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
        .withMessage(message).withObservedGeneration(generation).withLastTransitionTime(transition).build();
    conditions.removeIf(c -> c.getType().equals(type));
    conditions.add(condition);
    return true;
  }

  /** Removes a condition; returns true when there was one. */
  static boolean remove(List<Condition> conditions, String type) {
    return conditions.removeIf(c -> c.getType().equals(type));
  }

  static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions.stream().filter(c -> c.getType().equals(type)).findFirst();
  }

  static List<Condition> copy(List<Condition> conditions) {
    return conditions == null ? new ArrayList<>() : new ArrayList<>(conditions);
  }
}
