package io.gitfn.reconcile;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a step could not go on, in the small taxonomy every pass of both kinds shares:
 *
 * <ul>
 *   <li>{@link Stalled}: only a person can fix it (an invalid spec, Secret or revision). Not retried; the resource
 *       waits for a change, or looks again after {@link Stalled#lookAgain} when what is wrong cannot be watched.
 *   <li>{@link Retry}: it may pass by itself (a timeout, the API server unavailable, a conflict). The status shows it
 *       and the pass is retried with backoff.
 *   <li>{@link Waiting}: nothing failed, but the pass cannot go further until something else happens (the first
 *       fetch, a dependency). Looked at again after a fixed delay, without backoff.
 * </ul>
 *
 * <p>Each carries the condition reason and the message a person reads.
 */
public abstract sealed class StepFailure extends Exception
    permits StepFailure.Stalled, StepFailure.Retry, StepFailure.Waiting {

  private final String reason;

  private StepFailure(String reason, String message, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause, false, false);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** The condition reason, such as {@code InvalidRevision}. */
  public String reason() {
    return reason;
  }

  public static Stalled stalled(String reason, String message) {
    return new Stalled(reason, message, null, Optional.empty());
  }

  public static Retry retry(String reason, String message, Throwable cause) {
    return new Retry(reason, message, cause);
  }

  /** Waiting with a Normal Event: nothing is wrong. */
  public static Waiting waiting(String reason, String message, Duration lookAgain) {
    return new Waiting(reason, message, lookAgain, false);
  }

  /** Waiting on something that failed and that another part retries (the watcher's Git checks): a Warning Event. */
  public static Waiting waitingOnFailure(String reason, String message, Duration lookAgain) {
    return new Waiting(reason, message, lookAgain, true);
  }

  /** Only a person can fix it. */
  public static final class Stalled extends StepFailure {

    private final Optional<Duration> lookAgain;

    private Stalled(String reason, String message, Throwable cause, Optional<Duration> lookAgain) {
      super(reason, message, cause);
      this.lookAgain = lookAgain;
    }

    /**
     * The same stall, looked at again after {@code delay}: for what no watch shows being fixed, such as a Secret
     * created later.
     */
    public Stalled lookingAgainAfter(Duration delay) {
      return new Stalled(reason(), getMessage(), getCause(), Optional.of(delay));
    }

    public Optional<Duration> lookAgain() {
      return lookAgain;
    }
  }

  /** May pass by itself: retried with backoff. */
  public static final class Retry extends StepFailure {

    private Retry(String reason, String message, Throwable cause) {
      super(reason, message, cause);
    }
  }

  /** Cannot go further yet; looked at again after a fixed delay. */
  public static final class Waiting extends StepFailure {

    private final Duration lookAgain;
    private final boolean warning;

    private Waiting(String reason, String message, Duration lookAgain, boolean warning) {
      super(reason, message, null);
      this.lookAgain = Objects.requireNonNull(lookAgain, "lookAgain");
      this.warning = warning;
    }

    public Duration lookAgain() {
      return lookAgain;
    }

    /** Whether what is waited on failed, so that the Event is a Warning. */
    public boolean warning() {
      return warning;
    }
  }
}
