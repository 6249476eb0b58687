package io.gitfn.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Sends commit statuses off the reconcile threads, so that a slow or broken forge never holds a pass: a pass says
 * what its source's forge should show, and reads back, in a later pass, how the forge took it.
 *
 * <p>One slot per source (a key such as {@code FunctionRepository/shop/infra}) keeps only the newest status:
 * a status that a newer one replaces before it went out is never sent. A failure that may pass (a 5xx, a timeout)
 * is sent again with backoff, from 2 s up to 5 minutes, or after the forge's Retry-After; a refusal (a bad token,
 * an unknown repository) is not, until the source asks for another status. At most two requests go to one host at
 * a time, so one tenant's slow forge (or its apiURL pointing at a tarpit) holds two of the four threads at most,
 * each for at most the sender's timeout.
 */
public final class CommitStatusReporter implements AutoCloseable {

  /** How the forge took the newest status of a source. */
  public enum Result { SENDING, SENT, RETRYING, REJECTED }

  /**
   * The newest status of a source and what came of it.
   *
   * @param error why the last attempt failed; empty when it did not
   */
  public record Outcome(CommitStatus status, String revision, Result result, String error, Instant time) {}

  static final int THREADS = 4;
  static final int PER_HOST = 2;
  private static final Duration FIRST_RETRY = Duration.ofSeconds(2);
  private static final Duration LAST_RETRY = Duration.ofMinutes(5);
  private static final Duration HOST_BUSY = Duration.ofSeconds(1);

  private final Function<ForgeRequest, SendResult> sender;
  private final Clock clock;
  private final Consumer<String> changed;
  private final MeterRegistry meters;
  private final ScheduledExecutorService executor;
  private final Map<String, Slot> slots = new ConcurrentHashMap<>();
  private final Map<String, Semaphore> hosts = new ConcurrentHashMap<>();

  /**
   * @param sender sends one request; {@link CommitStatusSender#send} outside tests
   * @param changed told a source's key whenever its outcome changed, so its resource can show it
   */
  public CommitStatusReporter(Function<ForgeRequest, SendResult> sender, Clock clock, Consumer<String> changed,
      MeterRegistry meters) {
    this.sender = sender;
    this.clock = clock;
    this.changed = changed;
    this.meters = meters;
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newScheduledThreadPool(THREADS, r -> {
      Thread thread = new Thread(r, "gitfn-commit-status-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Asks that {@code forge} shows {@code status} for the source {@code key}; returns at once. The same status
   * again (after a refusal too) sends nothing: only another one does.
   *
   * @param token the forge token; kept only in this source's slot, and never in an outcome or a message
   * @throws IllegalArgumentException when no request can be made of it, such as a token with a line break
   */
  public void report(String key, ForgeRepository forge, String token, CommitStatus status, String revision) {
    ForgeRequest request = forge.request(status, token);
    // The request is the identity: another state, description or token is another status.
    offer(key, new Wanted(request, request, forge.forge().id(), status, revision));
  }

  /**
   * Asks that {@code endpoint} gets {@code notification}, signed with {@code secret}, for the source {@code key};
   * returns at once. Its time is not part of what makes it new: the same state of the same revision again sends
   * nothing.
   *
   * @throws IllegalArgumentException when the endpoint is not an absolute http(s) URL, or the secret is empty
   */
  public void notify(String key, URI endpoint, byte[] secret, GenericNotification notification) {
    ForgeRequest request = notification.request(endpoint, secret);
    Object identity = List.of(endpoint.toString(), Arrays.hashCode(secret), notification.revision(),
        notification.status(), notification.reason());
    offer(key, new Wanted(identity, request, "generic", notification.status(), notification.revision()));
  }

  private void offer(String key, Wanted wanted) {
    Slot slot = slots.computeIfAbsent(key, k -> new Slot());
    synchronized (slot) { // the slot's own lock: an offer and the send that finishes meet only here
      if (wanted.equals(slot.wanted)) {
        return;
      }
      slot.wanted = wanted;
      slot.failures = 0;
      slot.outcome = new Outcome(wanted.status(), wanted.revision(), Result.SENDING, "", clock.instant());
      if (slot.busy) {
        return; // the send in flight sees the new status when it ends, and sends it at once
      }
      slot.busy = true;
    }
    executor.execute(() -> send(key, slot));
  }

  /** How the forge took the newest status of {@code key}, if one was asked for since the controller started. */
  public Optional<Outcome> outcome(String key) {
    Slot slot = slots.get(key);
    if (slot == null) {
      return Optional.empty();
    }
    synchronized (slot) {
      return Optional.ofNullable(slot.outcome);
    }
  }

  /** The source is gone: its pending status is dropped. */
  public void forget(String key) {
    slots.remove(key);
  }

  private void send(String key, Slot slot) {
    if (slots.get(key) != slot) {
      return; // forgotten
    }
    Wanted wanted;
    synchronized (slot) {
      wanted = slot.wanted;
    }
    String host = wanted.request().uri().getHost() + ":" + wanted.request().uri().getPort();
    Semaphore permits = hosts.computeIfAbsent(host, h -> new Semaphore(PER_HOST));
    if (!permits.tryAcquire()) {
      schedule(key, slot, HOST_BUSY);
      return;
    }
    SendResult result;
    try {
      result = sender.apply(wanted.request());
    } finally {
      permits.release();
    }
    count(wanted.metricForge(), result);
    Duration again = null;
    synchronized (slot) {
      if (!wanted.equals(slot.wanted)) {
        again = Duration.ZERO; // replaced while in flight: what went out is history, send the newest now
      } else if (result.outcome() == SendResult.Outcome.RETRY) {
        slot.failures++;
        slot.outcome = new Outcome(wanted.status(), wanted.revision(), Result.RETRYING, result.toString(),
            clock.instant());
        again = result.retryAfter().filter(d -> d.compareTo(LAST_RETRY) <= 0).orElse(backoff(slot.failures));
      } else {
        boolean sent = result.outcome() == SendResult.Outcome.SENT;
        slot.outcome = new Outcome(wanted.status(), wanted.revision(), sent ? Result.SENT : Result.REJECTED,
            sent ? "" : result.toString(), clock.instant());
        slot.busy = false;
      }
    }
    if (again != null) {
      schedule(key, slot, again);
    }
    changed.accept(key);
  }

  private void schedule(String key, Slot slot, Duration delay) {
    try {
      executor.schedule(() -> send(key, slot), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing: the status is dropped, and the next controller reports the source's state again
    }
  }

  static Duration backoff(int failures) {
    Duration delay = FIRST_RETRY.multipliedBy(1L << Math.min(failures - 1, 20));
    return delay.compareTo(LAST_RETRY) > 0 ? LAST_RETRY : delay;
  }

  /** {@code gitfn_commit_statuses_total{forge, result}}: requests to forges by what came of them. */
  private void count(String forge, SendResult result) {
    Counter.builder("gitfn.commit.statuses").description("Commit-status requests sent to forges, by result")
        .tag("forge", forge).tag("result", result.outcome().name().toLowerCase(java.util.Locale.ROOT))
        .register(meters).increment();
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  private static final class Slot {
    Wanted wanted;
    Outcome outcome;
    int failures;
    boolean busy;
  }

  /**
   * What a source wants sent, and what makes it the same as another; the token stays out of {@link #toString()}.
   *
   * @param metricForge the forge's id, or {@code generic}, as the metric tags it
   */
  private record Wanted(Object identity, ForgeRequest request, String metricForge, CommitStatus status,
      String revision) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Wanted w && identity.equals(w.identity);
    }

    @Override
    public int hashCode() {
      return identity.hashCode();
    }

    @Override
    public String toString() {
      return request.uri().getHost() + " " + status.state().word() + " " + revision;
    }
  }
}
