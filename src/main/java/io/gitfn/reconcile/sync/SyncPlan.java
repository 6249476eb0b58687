package io.gitfn.reconcile.sync;

import java.util.List;

/**
 * What a sync will do: apply {@code creates} and {@code updates}, delete {@code deletes}, and leave
 * {@code unchanged} alone. Every list is sorted by namespace and name.
 *
 * @param conflicts desired Functions that another repository already manages; when there is any, the sync
 *     applies nothing
 */
record SyncPlan(
    List<AppliedFunction> creates,
    List<AppliedFunction> updates,
    List<FunctionKey> deletes,
    List<FunctionKey> unchanged,
    List<String> conflicts) {

  SyncPlan {
    creates = List.copyOf(creates);
    updates = List.copyOf(updates);
    deletes = List.copyOf(deletes);
    unchanged = List.copyOf(unchanged);
    conflicts = List.copyOf(conflicts);
  }

  /** The real API writes this plan takes: one per create, update and delete. */
  int writes() {
    return creates.size() + updates.size() + deletes.size();
  }
}
