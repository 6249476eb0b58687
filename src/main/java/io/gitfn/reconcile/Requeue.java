package io.gitfn.reconcile;

import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Duration;

/**
 * Every delay a pass waits before it looks again, in one place. Most passes need none: informers on Jobs and
 * Deployments, the Git watcher, the build queue and the forge's answers wake a resource when something it waits for
 * moves. These are the safety nets and the beats.
 */
public final class Requeue {

  /** A retried failure waits 2 s, then 1.5 times as long each time, up to 5 minutes, and never gives up. */
  public static final Duration BACKOFF_FIRST = Duration.ofSeconds(2);
  public static final Duration BACKOFF_MAX = Duration.ofMinutes(5);
  private static final double BACKOFF_FACTOR = 1.5;

  /** The shortest interval a FunctionRepository may ask for; the CRD refuses less, this catches what gets past. */
  public static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
  /** The longest interval a FunctionRepository is taken to mean. */
  public static final Duration MAX_INTERVAL = Duration.ofHours(24);
  /** The shortest time between two full passes of a repository whose revision, spec and Functions stand still. */
  public static final Duration RESYNC = Duration.ofMinutes(10);
  /** A manual request's check is asked for; the check may find nothing new, which sends no event, so look soon. */
  public static final Duration REQUEST_PENDING = Duration.ofMillis(500);
  /** A repository waiting for its first fetch. */
  public static final Duration FIRST_FETCH = Duration.ofSeconds(5);
  /** A repository whose Functions roll out: their passes wake it as they move; this is a safety net. */
  public static final Duration ROLLOUT_CHECK = Duration.ofSeconds(30);
  /** A repository waiting for the repositories it depends on, which wake it once they run; a safety net. */
  public static final Duration DEPENDENCY_CHECK = Duration.ofSeconds(30);

  /** A Function whose build or rollout is under way: the Job and Deployment informers wake it; a safety net. */
  public static final Duration FUNCTION_WAITING = Duration.ofSeconds(30);
  /** The pass that quarantines a failed version asks for the next at once: that one rolls back. */
  public static final Duration ROLL_BACK_NOW = Duration.ofMillis(100);

  private Requeue() {}

  /**
   * How the SDK retries a pass that failed in a way that may pass: with backoff and without a limit, so that an
   * API server that is away for an hour is caught up with once it is back, not ten hours later.
   */
  public static GenericRetry backoff() {
    return new GenericRetry().withoutMaxAttempts().setInitialInterval(BACKOFF_FIRST)
        .setIntervalMultiplier(BACKOFF_FACTOR).setMaxInterval(BACKOFF_MAX.toMillis());
  }

  /** A FunctionRepository's {@code spec.interval}, kept within {@link #MIN_INTERVAL} and {@link #MAX_INTERVAL}. */
  public static Duration interval(Duration asked) {
    if (asked.compareTo(MIN_INTERVAL) < 0) {
      return MIN_INTERVAL;
    }
    return asked.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : asked;
  }

  /** How long a full pass's apply stands, at rest: an interval, but at least {@link #RESYNC}. */
  public static Duration resync(Duration interval) {
    return interval.compareTo(RESYNC) > 0 ? interval : RESYNC;
  }
}
