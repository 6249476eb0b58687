package io.gitfn.reconcile.sync;

import java.util.List;

/**
 * What a sync did. Each list holds {@code <namespace>/<name>} of Functions, sorted.
 *
 * @param created Functions that did not exist and were applied
 * @param updated Functions whose content changed in Git, or drifted in the cluster, and were applied
 * @param deleted Functions of this repository that left Git and were pruned
 * @param unchanged Functions already as Git wants them; they were not written and keep the revision annotation
 *     of the revision that last changed them
 * @param writes real (not dry-run) create, apply and delete calls made to the API server
 */
public record SyncResult(
    List<String> created, List<String> updated, List<String> deleted, List<String> unchanged, int writes) {

  public SyncResult {
    created = List.copyOf(created);
    updated = List.copyOf(updated);
    deleted = List.copyOf(deleted);
    unchanged = List.copyOf(unchanged);
  }

  /** Whether the sync changed anything in the cluster. */
  public boolean changed() {
    return writes > 0;
  }
}
