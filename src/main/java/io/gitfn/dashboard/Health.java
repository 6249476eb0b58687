package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.RepositoryConditionReason;
import io.gitfn.api.repository.RepositoryConditionType;
import java.util.List;

/** A FunctionRepository's state in one word, from its conditions, as Flux and Argo CD users read it. */
public enum Health {
  READY("Ready"),
  RECONCILING("Reconciling"),
  FAILED("Failed"),
  STALLED("Stalled"),
  SUSPENDED("Suspended"),
  UNKNOWN("Unknown");

  private final String label;

  Health(String label) {
    this.label = label;
  }

  /** What the page shows. */
  public String label() {
    return label;
  }

  /** The CSS class of its badge. */
  public String css() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Stalled (a person must act) outranks everything; then Ready, Suspended, Failed, and Reconciling. */
  static Health of(List<Condition> conditions) {
    if (Conditions.isTrue(conditions, RepositoryConditionType.STALLED)) {
      return STALLED;
    }
    String ready = Conditions.status(conditions, RepositoryConditionType.READY);
    String reason = Conditions.find(conditions, RepositoryConditionType.READY).map(Condition::getReason).orElse("");
    if (RepositoryConditionReason.SUSPENDED.equals(reason)) {
      return SUSPENDED;
    }
    if ("True".equals(ready)) {
      return READY;
    }
    if ("False".equals(ready)) {
      return FAILED;
    }
    return Conditions.isTrue(conditions, RepositoryConditionType.RECONCILING) ? RECONCILING : UNKNOWN;
  }
}
