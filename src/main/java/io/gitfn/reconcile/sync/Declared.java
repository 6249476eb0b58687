package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The objects of one kind a revision declares beside its Functions, all in the repository's namespace, and the names
 * of those the repository applied before (from its status): what it prunes when they leave Git.
 */
public record Declared<T extends HasMetadata>(List<T> desired, Set<String> owned) {

  public Declared {
    desired = List.copyOf(Objects.requireNonNull(desired, "desired"));
    owned = Set.copyOf(Objects.requireNonNull(owned, "owned"));
  }

  public static <T extends HasMetadata> Declared<T> none() {
    return new Declared<>(List.of(), Set.of());
  }
}
