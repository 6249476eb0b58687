package io.gitfn.dashboard;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionStatus;
import java.util.List;
import java.util.Optional;

/**
 * One Function as a repository's page lists it: how far it is from running its spec, and what it runs.
 *
 * @param progress its phase, with the reason and message of the condition that decided it
 * @param contentKey the key of the newest version in its history: what it builds or runs, or null before one
 * @param image the image its Deployment runs, or null before one
 * @param replicas how many of its Deployment's replicas are ready, of how many, or null before it has one
 * @param pinnedRevision the revision {@code gitfn rollback --pin} holds it to, or null
 */
public record FunctionSummary(String namespace, String name, String runtime, FunctionProgress progress,
    String contentKey, String image, Replicas replicas, String pinnedRevision) {

  /** Ready of desired, as {@code kubectl get deployment} shows them. */
  public record Replicas(int ready, int desired) {
    @Override
    public String toString() {
      return ready + "/" + desired;
    }
  }

  /**
   * @param rollout its Deployment's rollout, from the controller's cache
   */
  static FunctionSummary of(Function fn, Optional<DeploymentRollout> rollout) {
    FunctionStatus status = fn.getStatus() == null ? new FunctionStatus() : fn.getStatus();
    List<FunctionHistoryEntry> history = status.getHistory() == null ? List.of() : status.getHistory();
    return new FunctionSummary(
        fn.getMetadata().getNamespace(),
        fn.getMetadata().getName(),
        fn.getSpec() == null || fn.getSpec().getRuntime() == null ? null : fn.getSpec().getRuntime().toString(),
        FunctionProgress.of(fn),
        history.isEmpty() ? null : history.get(0).getContentKey(),
        status.getImage(),
        rollout.map(r -> new Replicas(r.ready(), r.desired())).orElse(null),
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
