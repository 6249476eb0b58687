package io.gitfn.reconcile.sync;

import java.util.List;

/**
 * A sync that applied nothing because the revision cannot be applied as a whole: a cross-namespace Function, an
 * empty revision without {@code allowEmpty}, or Functions the API server rejects in a dry run. Retrying the same
 * revision gives the same answer; a new revision or a changed FunctionRepository is needed.
 */
public final class SyncRefusedException extends Exception {

  private final List<String> reasons;

  public SyncRefusedException(List<String> reasons) {
    super(message(reasons));
    this.reasons = List.copyOf(reasons);
  }

  /** One readable line per problem, each naming the Function it is about when there is one. */
  public List<String> reasons() {
    return reasons;
  }

  private static String message(List<String> reasons) {
    if (reasons.size() == 1) {
      return "nothing applied: " + reasons.get(0);
    }
    return "nothing applied, " + reasons.size() + " problems: " + String.join("; ", reasons);
  }
}
