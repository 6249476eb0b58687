package io.gitfn.api;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Kubernetes-convention conditions: one per type, with a transition time that moves only when the status does.
 * The reconcilers write them; the command line reads them from a status that may not be written yet.
 */
public final class Conditions {

  /**
   * The reason both kinds show when a step failed in a way nobody foresaw (an API call that failed, an exception):
   * the message names the step and the error, and the pass is retried with backoff. Flux calls it the same.
   */
  public static final String RECONCILIATION_FAILED = "ReconciliationFailed";

  private Conditions() {}

  /** Sets a condition; returns true when its status, reason or message changed. */
  public static boolean set(List<Condition> conditions, String type, String status, String reason, String message,
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
  public static boolean remove(List<Condition> conditions, String type) {
    return conditions.removeIf(c -> c.getType().equals(type));
  }

  /** The condition of {@code type}; empty also when there are no conditions at all yet. */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /** The condition's status, or Unknown as kubectl would show a missing one. */
  public static String status(List<Condition> conditions, String type) {
    return find(conditions, type).map(Condition::getStatus).orElse("Unknown");
  }

  public static String message(List<Condition> conditions, String type) {
    return find(conditions, type).map(Condition::getMessage).orElse("");
  }

  /** A list the caller may change, holding the same conditions. */
  public static List<Condition> copy(List<Condition> conditions) {
    return conditions == null ? new ArrayList<>() : new ArrayList<>(conditions);
  }
}
