package io.gitfn.reconcile;

import java.time.Duration;
import java.util.Optional;

/**
 * What a step that did not fail tells the runner: go on with the next step or stop the pass here, and, if it asks,
 * when to look again. Two results merge into the soonest look.
 *
 * @param requeue the longest the next pass may wait; empty when this step does not care
 * @param stop whether the pass ends after this step, leaving what the steps so far set
 */
public record Result(Optional<Duration> requeue, boolean stop) {

  private static final Result NEXT = new Result(Optional.empty(), false);

  public Result {
    requeue.ifPresent(delay -> {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("a requeue cannot be in the past: " + delay);
      }
    });
  }

  /** Go on with the next step. */
  public static Result next() {
    return NEXT;
  }

  /** Go on with the next step, and look again within {@code delay}. */
  public static Result within(Duration delay) {
    return new Result(Optional.of(delay), false);
  }

  /** The pass ends here, and looks again within {@code delay}. */
  public static Result stopFor(Duration delay) {
    return new Result(Optional.of(delay), true);
  }

  /** Both results: the soonest look, and a stop if either stops. */
  public Result and(Result other) {
    return new Result(soonest(requeue, other.requeue), stop || other.stop);
  }

  /** The sooner of two looks; empty only when both are. */
  public static Optional<Duration> soonest(Optional<Duration> a, Optional<Duration> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().compareTo(b.get()) <= 0 ? a : b;
  }
}
