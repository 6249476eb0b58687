package io.gitfn.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work that must end within a budget: reconcile passes and Git checks.
 *
 * <p>Work watched with {@code interrupt} that runs past its budget is interrupted once, at the next {@link #check}:
 * a pass blocked on the API server, on a Git call or on a registry ends with an exception, and the SDK retries it
 * later, so one tenant's slow pass gives its thread back. Work still running {@link #GRACE} past its budget is
 * stuck: {@link #stuck()} names it, {@code /healthz} fails, and Kubernetes restarts the controller rather than
 * let it look healthy while it does nothing.
 */
public final class Watchdog implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Watchdog.class);
  /** How long work may run past its budget, after the interrupt, before it counts as stuck. */
  public static final Duration GRACE = Duration.ofSeconds(60);
  private static final int NAMED_IN_HEALTH = 3;

  private final Clock clock;
  private final Map<Long, Watch> running = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "gitfn-watchdog");
    t.setDaemon(true);
    return t;
  });

  /** A watchdog that {@link #check checks} nothing by itself; call {@link #checkEvery} to start it. */
  public Watchdog(Clock clock) {
    this.clock = clock;
  }

  /** Checks the running work at this period on a thread of its own, until {@link #close}. */
  public Watchdog checkEvery(Duration period) {
    timer.scheduleAtFixedRate(this::check, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  /**
   * Watches the calling thread's work until the returned watch is closed.
   *
   * @param what names the work in logs and on {@code /healthz}, such as {@code reconcile of Function shop/orders}
   * @param interrupt whether to interrupt the thread once the budget is spent; work that handles an interrupt
   *     badly is only reported
   */
  public Watch watch(String what, Duration budget, boolean interrupt) {
    Watch watch = new Watch(ids.incrementAndGet(), what, budget, interrupt, Thread.currentThread(), clock.instant());
    running.put(watch.id, watch);
    return watch;
  }

  /** Interrupts the work past its budget that asked for it and has not been interrupted yet. Run every second. */
  public void check() {
    Instant now = clock.instant();
    for (Watch watch : running.values()) {
      if (watch.interrupt && watch.overdue(now)) {
        watch.interruptOnce();
      }
    }
  }

  /** The work running {@link #GRACE} past its budget, longest first, as {@code /healthz} says it; empty if none. */
  public Optional<String> stuck() {
    Instant now = clock.instant();
    List<Watch> stuck = running.values().stream()
        .filter(w -> Duration.between(w.started, now).compareTo(w.budget.plus(GRACE)) > 0)
        .sorted(Comparator.comparing(w -> w.started))
        .toList();
    if (stuck.isEmpty()) {
      return Optional.empty();
    }
    String named = stuck.stream().limit(NAMED_IN_HEALTH)
        .map(w -> w.what + " has run for " + seconds(Duration.between(w.started, now)) + " (budget "
            + seconds(w.budget) + ")")
        .collect(Collectors.joining("; "));
    return Optional.of("stuck: " + named + (stuck.size() > NAMED_IN_HEALTH
        ? "; and " + (stuck.size() - NAMED_IN_HEALTH) + " more" : ""));
  }

  private static String seconds(Duration duration) {
    return duration.toSeconds() + " s";
  }

  /** One piece of watched work; closing it ends the watch, and clears an interrupt the work did not consume. */
  public final class Watch implements AutoCloseable {
    private final long id;
    private final String what;
    private final Duration budget;
    private final boolean interrupt;
    private final Thread thread;
    private final Instant started;
    // Guarded by this: the interrupt and the close must not cross, or a pool thread would carry the interrupt
    // into the next piece of work it runs.
    private boolean interrupted;
    private boolean closed;

    private Watch(long id, String what, Duration budget, boolean interrupt, Thread thread, Instant started) {
      this.id = id;
      this.what = what;
      this.budget = budget;
      this.interrupt = interrupt;
      this.thread = thread;
      this.started = started;
    }

    /** Whether the watchdog interrupted this work because it ran past its budget. */
    public synchronized boolean overran() {
      return interrupted;
    }

    private boolean overdue(Instant now) {
      return Duration.between(started, now).compareTo(budget) > 0;
    }

    private synchronized void interruptOnce() {
      if (closed || interrupted) {
        return;
      }
      interrupted = true;
      log.warn("{} has run for more than its budget of {}; interrupting it", what, seconds(budget));
      thread.interrupt();
    }

    @Override
    public synchronized void close() {
      closed = true;
      running.remove(id);
      if (interrupted && Thread.currentThread() == thread) {
        Thread.interrupted();
      }
    }
  }
}
