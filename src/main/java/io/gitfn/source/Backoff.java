package io.gitfn.source;

import java.time.Duration;
import java.util.Objects;

/** How long to wait after consecutive failures: {@code initial}, doubled each time, never more than {@code max}. */
public record Backoff(Duration initial, Duration max) {

  /** The controller's: from 1 s, doubling, up to 5 minutes (and never past a source's own interval). */
  public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5));

  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max, not " + initial + " and " + max);
    }
  }

  /** Zero after no failure; {@code initial} after the first. */
  public Duration after(int consecutiveFailures) {
    if (consecutiveFailures <= 0) {
      return Duration.ZERO;
    }
    Duration wait = initial;
    for (int i = 1; i < consecutiveFailures && wait.compareTo(max) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(max) > 0 ? max : wait;
  }
}
