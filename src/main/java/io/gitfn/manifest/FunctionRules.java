package io.gitfn.manifest;

import io.gitfn.api.function.Function;
import java.util.List;

/**
 * Kyma's rules for a Function (reference §1.7), for a Function that reached the cluster without going through the
 * manifest reader, such as one applied with kubectl: the controller checks it with the same rules.
 */
public final class FunctionRules {

  private static final FunctionValidator VALIDATOR =
      new FunctionValidator(ManifestOptions.defaults().maxSourceBytes(), false);

  private FunctionRules() {
  }

  /** Every broken rule, as {@code field: message}; empty when the Function is valid. */
  public static List<String> check(Function fn) {
    return VALIDATOR.check(fn).stream().map(v -> v.field() + ": " + v.message()).toList();
  }
}
