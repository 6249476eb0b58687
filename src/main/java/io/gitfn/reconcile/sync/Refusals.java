package io.gitfn.reconcile.sync;

import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a sync request must keep before anything is sent to the API server. Each broken rule is one reason;
 * an empty list means the request may go on to the dry run.
 */
final class Refusals {

  static final String EMPTY_REVISION =
      "the revision yields no Functions; set spec.allowEmpty to prune them all";

  // A label value: at most 63 characters, alphanumeric at both ends, '-', '_' and '.' inside.
  private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

  static List<String> of(SyncRequest request) {
    List<String> reasons = new ArrayList<>();
    if (!LABEL_VALUE.matcher(request.owner()).matches()) {
      reasons.add("the repository label value '" + request.owner() + "' is not a valid label value "
          + "(at most 63 characters); shorten the FunctionRepository's name");
    }
    if (request.desired().isEmpty() && !request.allowEmpty()) {
      reasons.add(EMPTY_REVISION);
    }
    Set<String> targets = request.targetNamespaces();
    Set<FunctionKey> seen = new HashSet<>();
    for (Function function : request.desired()) {
      if (function.getMetadata() == null || function.getMetadata().getName() == null
          || function.getMetadata().getName().isBlank()) {
        reasons.add("a Function has no metadata.name");
        continue;
      }
      FunctionKey key = placement(function, request);
      if (!targets.contains(key.namespace())) {
        reasons.add("Function " + key + ": namespace " + key.namespace() + " is not the repository's namespace "
            + request.namespace() + ", and the controller does not allow it as a target namespace");
      }
      if (!seen.add(key)) {
        reasons.add("Function " + key + " is declared more than once");
      }
    }
    return reasons;
  }

  /** Where a desired Function goes: its own namespace, or the repository's when it names none. */
  static FunctionKey placement(Function function, SyncRequest request) {
    String namespace = function.getMetadata().getNamespace();
    return new FunctionKey(
        namespace == null || namespace.isBlank() ? request.namespace() : namespace,
        function.getMetadata().getName());
  }

  private Refusals() {}
}
