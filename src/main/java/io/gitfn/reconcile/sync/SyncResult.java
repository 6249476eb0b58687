package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Objects;

/**
 * What a sync did. Each list holds {@code <namespace>/<name>} of Functions, sorted.
 *
 * @param created Functions that did not exist and were applied
 * @param updated Functions whose content changed in Git, or drifted in the cluster, and were applied
 * @param deleted Functions of this repository that left Git and were pruned
 * @param unchanged Functions already as Git wants them; they were not written and keep the revision annotation
 *     of the revision that last changed them
 * @param writes real (not dry-run) create, apply and delete calls made to the API server
 * @param functions the revision's Functions as the API server holds them after the sync, status included: the
 *     answer to the apply of a written one, the listed object of an unchanged one. What the repository's
 *     readiness is judged from, with no call of its own.
 * @param secrets what the sync did with the repository's Secrets, by name
 * @param configMaps what the sync did with the repository's ConfigMaps, by name
 * @param objects what the sync did with the repository's objects of other kinds (routes), as {@code Kind/name}
 */
public record SyncResult(List<String> created, List<String> updated, List<String> deleted, List<String> unchanged,
    int writes, List<GenericKubernetesResource> functions, ObjectChanges secrets, ObjectChanges configMaps,
    ObjectChanges objects) {

  /** The names of the objects of one kind a sync created, updated and pruned. */
  public record ObjectChanges(List<String> created, List<String> updated, List<String> deleted) {

    public static final ObjectChanges NONE = new ObjectChanges(List.of(), List.of(), List.of());

    /** How many were written. */
    public int count() {
      return created.size() + updated.size() + deleted.size();
    }

    public ObjectChanges {
      created = List.copyOf(created);
      updated = List.copyOf(updated);
      deleted = List.copyOf(deleted);
    }
  }

  /** What a sync that wrote nothing did: what a failure before the first write reports. */
  static SyncResult nothingDone() {
    return new SyncResult(List.of(), List.of(), List.of(), List.of(), 0, List.of());
  }

  /** A result of Functions only. */
  public SyncResult(List<String> created, List<String> updated, List<String> deleted, List<String> unchanged,
      int writes, List<GenericKubernetesResource> functions) {
    this(created, updated, deleted, unchanged, writes, functions, ObjectChanges.NONE, ObjectChanges.NONE,
        ObjectChanges.NONE);
  }

  public SyncResult {
    Objects.requireNonNull(secrets, "secrets");
    Objects.requireNonNull(configMaps, "configMaps");
    Objects.requireNonNull(objects, "objects");
    created = List.copyOf(created);
    updated = List.copyOf(updated);
    deleted = List.copyOf(deleted);
    unchanged = List.copyOf(unchanged);
    functions = List.copyOf(functions);
  }

  /** Whether the sync changed anything in the cluster. */
  public boolean changed() {
    return writes > 0;
  }
}
