package io.gitfn.dashboard;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionStatus;
import java.util.List;

/**
 * One Function as a repository's page lists it: how far it is from running its spec, and what it runs.
 *
 * @param progress its phase, with the reason and message of the condition that decided it
 * @param contentKey the key of the newest version in its history: what it builds or runs, or null before one
 * @param image the image its Deployment runs, or null before one
 * @param replicas the replicas its status counts, or null
 * @param pinnedRevision the revision {@code gitfn rollback --pin} holds it to, or null
 */
public record FunctionSummary(String namespace, String name, String runtime, FunctionProgress progress,
    String contentKey, String image, Integer replicas, String pinnedRevision) {

  static FunctionSummary of(Function fn) {
    FunctionStatus status = fn.getStatus() == null ? new FunctionStatus() : fn.getStatus();
    List<FunctionHistoryEntry> history = status.getHistory() == null ? List.of() : status.getHistory();
    return new FunctionSummary(
        fn.getMetadata().getNamespace(),
        fn.getMetadata().getName(),
        fn.getSpec() == null || fn.getSpec().getRuntime() == null ? null : fn.getSpec().getRuntime().toString(),
        FunctionProgress.of(fn),
        history.isEmpty() ? null : history.get(0).getContentKey(),
        status.getImage(),
        status.getReplicas(),
        status.getPinnedRevision());
  }

  /** The CSS class of its phase's badge: the repository's words for the same states. */
  public String css() {
    return switch (progress.phase()) {
      case RUNNING -> "ready";
      case PINNED -> "suspended";
      case FAILED -> "failed";
      case ROLLING_OUT -> "reconciling";
    };
  }

  /** What its badge says. */
  public String phase() {
    return switch (progress.phase()) {
      case RUNNING -> "Running";
      case PINNED -> "Pinned";
      case FAILED -> "Failed";
      case ROLLING_OUT -> "Rolling out";
    };
  }
}
