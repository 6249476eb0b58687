package io.gitfn.reconcile.repository;

import io.gitfn.api.function.Function;
import java.util.Optional;

/**
 * The Functions as the Function controller's informer cache holds them, its own status writes included: where a
 * pass with nothing new to apply reads how its Functions roll out, with no call to the API server.
 */
@FunctionalInterface
public interface CachedFunctions {

  /** The cached Function, if the cache has it; empty too before the Function controller has started. */
  Optional<Function> get(String namespace, String name);
}
