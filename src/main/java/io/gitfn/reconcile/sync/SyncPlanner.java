package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gitfn.api.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Compares the Functions a revision wants with the live ones and decides what to write. No I/O. */
final class SyncPlanner {

  /**
   * The plan that makes {@code live} match {@code desired}. A live Function without the repository label, made
   * by hand, is taken over; one with another repository's label is a conflict.
   *
   * @param live every Function the repository owns, and any other whose name it desires, whoever owns it
   * @param owner the repository label value; only live Functions carrying it are ever deleted
   * @param prune whether Functions of {@code owner} that are not desired are deleted
   */
  static SyncPlan plan(
      List<AppliedFunction> desired, List<GenericKubernetesResource> live, String owner, boolean prune) {
    Map<FunctionKey, GenericKubernetesResource> liveByKey = new HashMap<>();
    for (GenericKubernetesResource object : live) {
      liveByKey.put(FunctionKey.of(object), object);
    }
    List<AppliedFunction> creates = new ArrayList<>();
    List<AppliedFunction> updates = new ArrayList<>();
    List<FunctionKey> unchanged = new ArrayList<>();
    List<String> conflicts = new ArrayList<>();
    for (AppliedFunction function : desired) {
      GenericKubernetesResource current = liveByKey.remove(function.key());
      String currentOwner = current == null ? null : owner(current);
      if (currentOwner != null && !currentOwner.equals(owner)) {
        // Two repositories declaring one Function would overwrite each other at every sync.
        conflicts.add("Function " + function.key() + " is managed by repository " + currentOwner
            + " (label " + Labels.REPOSITORY + "); remove it from one of the two repositories");
      } else if (current == null) {
        creates.add(function);
      } else if (function.isSatisfiedBy(current)) {
        unchanged.add(function.key());
      } else {
        updates.add(function);
      }
    }
    List<FunctionKey> deletes = new ArrayList<>();
    if (prune) {
      for (GenericKubernetesResource leftover : liveByKey.values()) {
        if (owner.equals(owner(leftover)) && leftover.getMetadata().getDeletionTimestamp() == null) {
          deletes.add(FunctionKey.of(leftover));
        }
      }
    }
    Comparator<AppliedFunction> byKey = Comparator.comparing(AppliedFunction::key);
    creates.sort(byKey);
    updates.sort(byKey);
    deletes.sort(Comparator.naturalOrder());
    unchanged.sort(Comparator.naturalOrder());
    conflicts.sort(Comparator.naturalOrder());
    return new SyncPlan(creates, updates, deletes, unchanged, conflicts);
  }

  /** The repository label's value, or null for a Function no repository manages. */
  private static String owner(GenericKubernetesResource object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? null : labels.get(Labels.REPOSITORY);
  }

  private SyncPlanner() {}
}
