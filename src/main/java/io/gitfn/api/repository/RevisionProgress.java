package io.gitfn.api.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.FUNCTIONS_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.ROLLING_OUT;
import static io.gitfn.api.repository.RepositoryConditionReason.SUCCEEDED;

import io.gitfn.api.function.FunctionProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Whether an applied revision runs, judged from its Functions' progress alone: what a FunctionRepository's
 * {@code Ready} says once its revision is applied. The controller and {@code gitfn up} both judge by it.
 *
 * <p>Ready is True once every Function runs the revision (or is pinned to another), Unknown with {@code RollingOut}
 * while any builds or rolls out, and False with {@code FunctionsFailed} once one failed and none is still moving.
 * {@link #pending} names the Functions that do not run it, failed ones first, at most
 * {@link FunctionRepositoryStatus#PENDING_LIMIT} of them; the message counts them all.
 *
 * @param ready Ready's status: True, Unknown or False
 * @param moving how many Functions build or roll out
 * @param failed how many failed
 */
public record RevisionProgress(String ready, String reason, String message, List<PendingFunction> pending, int total,
    int moving, int failed) {

  public RevisionProgress {
    pending = List.copyOf(pending);
  }

  /**
   * @param revision the applied revision, as the message names it
   * @param namespace the repository's namespace: a Function elsewhere is named with its own
   */
  public static RevisionProgress of(String revision, String namespace, List<FunctionProgress> functions) {
    List<FunctionProgress> failed = functions.stream().filter(p -> p.phase() == FunctionProgress.Phase.FAILED)
        .toList();
    List<FunctionProgress> moving = functions.stream()
        .filter(p -> p.phase() == FunctionProgress.Phase.ROLLING_OUT).toList();
    List<FunctionProgress> pinned = functions.stream().filter(p -> p.phase() == FunctionProgress.Phase.PINNED)
        .toList();
    List<FunctionProgress> notRunning = new ArrayList<>(failed);
    notRunning.addAll(moving);
    List<PendingFunction> pending = notRunning.stream().limit(FunctionRepositoryStatus.PENDING_LIMIT)
        .map(p -> new PendingFunction(p.name(), p.namespace(),
            p.phase() == FunctionProgress.Phase.FAILED ? "Failed" : "RollingOut", p.reason(), p.message()))
        .toList();
    int total = functions.size();
    if (!moving.isEmpty()) {
      return new RevisionProgress("Unknown", ROLLING_OUT, "revision " + revision + " is applied; " + moving.size()
          + " of " + total + " Functions do not run it yet" + (failed.isEmpty() ? "" : " and " + failed.size()
          + " failed") + ": " + list(notRunning, namespace), pending, total, moving.size(), failed.size());
    }
    if (!failed.isEmpty()) {
      return new RevisionProgress("False", FUNCTIONS_FAILED, "revision " + revision + " is applied, but "
          + failed.size() + " of " + total + " Functions failed: " + list(failed, namespace), pending, total, 0,
          failed.size());
    }
    String pinnedNote = pinned.isEmpty() ? "" : "; pinned, so running another revision: "
        + pinned.stream().map(p -> p.describe(namespace)).collect(Collectors.joining("; "));
    return new RevisionProgress("True", SUCCEEDED, "revision " + revision + " runs: " + functions(total) + " ready"
        + pinnedNote, pending, total, 0, 0);
  }

  /** Whether the revision runs: Ready is True. */
  public boolean runs() {
    return "True".equals(ready);
  }

  /** A short word for where the revision stands, without the Functions' names: a forge's commit status. */
  public String brief() {
    if (moving > 0) {
      return "applied; " + moving + " of " + total + " Functions rolling out";
    }
    if (failed > 0) {
      // The message's list, which follows its first " Functions failed: " (a Function's own message may say failed).
      String marker = " Functions failed: ";
      return failed + " of " + total + marker + message.substring(message.indexOf(marker) + marker.length());
    }
    return "runs: " + functions(total) + " ready";
  }

  /** "1 Function" or "N Functions". */
  public static String functions(int count) {
    return count == 1 ? "1 Function" : count + " Functions";
  }

  private static String list(List<FunctionProgress> progress, String namespace) {
    String shown = progress.stream().limit(FunctionRepositoryStatus.PENDING_LIMIT).map(p -> p.describe(namespace))
        .collect(Collectors.joining("; "));
    int more = progress.size() - FunctionRepositoryStatus.PENDING_LIMIT;
    return more > 0 ? shown + "; and " + more + " more" : shown;
  }
}
