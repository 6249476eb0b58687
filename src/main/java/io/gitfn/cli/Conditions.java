package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Optional;

/** Reading kstatus conditions from a status that may not be written yet. */
final class Conditions {

  private Conditions() {}

  static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /** The condition's status, or Unknown as kubectl would show a missing one. */
  static String status(List<Condition> conditions, String type) {
    return find(conditions, type).map(Condition::getStatus).orElse("Unknown");
  }

  static String message(List<Condition> conditions, String type) {
    return find(conditions, type).map(Condition::getMessage).orElse("");
  }
}
