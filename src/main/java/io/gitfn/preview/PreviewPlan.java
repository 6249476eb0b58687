package io.gitfn.preview;

import java.time.Instant;
import java.util.List;

/**
 * Which previews run, which are stopped and which go, as {@link PreviewPlanner} decided.
 *
 * @param run the previews that run, newest push first; at most {@code maxActive}
 * @param stopped previews without a namespace that wait for a push: by their ttl, or to make room
 * @param removed previews whose pull request is closed or no longer qualifies
 */
public record PreviewPlan(List<Run> run, List<Stopped> stopped, List<Removed> removed) {

  public PreviewPlan {
    run = List.copyOf(run);
    stopped = List.copyOf(stopped);
    removed = List.copyOf(removed);
  }

  /**
   * A preview that runs.
   *
   * @param started whether it did not run before (new, or back after a stop): its namespace is to be made
   */
  public record Run(long number, String headSha, String headRef, Instant createdAt, Instant pushedAt,
      boolean started) {}

  /**
   * A preview that does not run and waits for a push.
   *
   * @param stopping whether it ran until now: its namespace is to be removed and its pull request told
   */
  public record Stopped(long number, String headSha, String headRef, Instant createdAt, Instant pushedAt,
      String message, boolean stopping) {}

  /** A preview that goes, and why, in words that follow "pull request #N". */
  public record Removed(long number, String why) {}
}
