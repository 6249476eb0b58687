package io.gitfn.preview;

import java.time.Instant;
import java.util.Objects;

/**
 * A preview as its repository's status holds it, for the next plan.
 *
 * @param running whether it runs (its namespace is there), or was stopped (by its ttl or to make room) and waits
 *     for a push
 * @param pushedAt when it last got a new head; the ttl and the order of eviction count from it
 * @param message why it was stopped, kept while it stays stopped
 */
public record PreviewRecord(long number, String headSha, String headRef, boolean running, Instant createdAt,
    Instant pushedAt, String message) {

  public PreviewRecord {
    Objects.requireNonNull(headSha, "headSha");
    Objects.requireNonNull(headRef, "headRef");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(pushedAt, "pushedAt");
  }
}
