package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The objects of one kind a revision declares beside its Functions, all in the repository's namespace, and the names
 * of those the repository applied before (from its status): what it prunes when they leave Git.
 *
 * @param places where each desired object is declared ({@code file:line}) by name, for the messages of a refusal;
 *     an object without one is named by kind and name alone
 */
public record Declared<T extends HasMetadata>(List<T> desired, Set<String> owned, Map<String, String> places) {

  public Declared {
    desired = List.copyOf(Objects.requireNonNull(desired, "desired"));
    owned = Set.copyOf(Objects.requireNonNull(owned, "owned"));
    places = Map.copyOf(Objects.requireNonNull(places, "places"));
  }

  public Declared(List<T> desired, Set<String> owned) {
    this(desired, owned, Map.of());
  }

  public static <T extends HasMetadata> Declared<T> none() {
    return new Declared<>(List.of(), Set.of());
  }

  /** How a message names the desired object {@code name}: where it is declared first, when that is known. */
  public String shown(String name) {
    String place = places.get(name);
    return place == null ? "" : place + ": ";
  }
}
