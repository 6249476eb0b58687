package io.gitfn.trigger;

import io.gitfn.source.Revision;
import java.time.Instant;
import java.util.Optional;

/**
 * What the watcher knows of one source, for its status.
 *
 * @param revision the last good revision, kept through later failures (a deleted branch, an outage)
 * @param checkedAt when the last check of the source started, successful or not: a request made before this
 *     instant is answered by that check
 * @param error the last check's error, or empty when it succeeded
 * @param failures consecutive failed checks
 * @param lastDelivery the last webhook delivery that triggered this source
 */
public record SourceState(
    Optional<Revision> revision,
    Optional<Instant> checkedAt,
    Optional<String> error,
    int failures,
    Optional<Delivery> lastDelivery) {

  static final SourceState NEW =
      new SourceState(Optional.empty(), Optional.empty(), Optional.empty(), 0, Optional.empty());

  /** A webhook delivery a source acted on. */
  public record Delivery(String forge, String deliveryId, Instant at) {}

  SourceState succeeded(Revision current, Instant at) {
    return new SourceState(Optional.of(current), Optional.of(at), Optional.empty(), 0, lastDelivery);
  }

  SourceState failed(String message, Instant at) {
    return new SourceState(revision, Optional.of(at), Optional.of(message), failures + 1, lastDelivery);
  }

  SourceState delivered(Delivery delivery) {
    return new SourceState(revision, checkedAt, error, failures, Optional.of(delivery));
  }
}
