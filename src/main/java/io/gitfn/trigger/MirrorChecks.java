package io.gitfn.trigger;

import io.gitfn.health.Watchdog;
import io.gitfn.source.Backoff;
import io.gitfn.source.Mirror;
import io.gitfn.source.RemoteRefs;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of one mirror, shared by every source that tracks a ref of it.
 *
 * <p>One check is one {@code ls-remote} for all of them, and at most one fetch, of the refs that moved.
 * Requests that arrive while a check runs (a webhook, a manual trigger, the schedule) coalesce into one more
 * check after it, so checks of a mirror never overlap and a burst of pushes costs two checks, not one each.
 */
final class MirrorChecks {

  private static final Logger log = LoggerFactory.getLogger(MirrorChecks.class);
  /** Each scheduled check lands within this fraction of the interval either side, so repositories spread out. */
  static final double JITTER = 0.1;

  private final Mirror mirror;
  private final Map<SourceId, TrackedSource> sources = new ConcurrentHashMap<>();
  private final Map<SourceId, SourceEvents> listeners = new ConcurrentHashMap<>();
  private final Map<SourceId, SourceState> states;
  private final Executor executor;
  private final Clock clock;
  private final Backoff backoff;
  private final Consumer<Duration> scheduleNext;
  private final SourceMetrics metrics;
  private final Supplier<Watchdog.Watch> watch; // one per check: a stream of webhooks keeps the loop going

  // Guarded by this: whether a check runs, and what asked for one since it started.
  private boolean running;
  private final Set<String> pending = new LinkedHashSet<>();
  private int failures;

  MirrorChecks(
      Mirror mirror,
      Map<SourceId, SourceState> states,
      Executor executor,
      Clock clock,
      Backoff backoff,
      Consumer<Duration> scheduleNext,
      SourceMetrics metrics,
      Supplier<Watchdog.Watch> watch) {
    this.watch = watch;
    this.mirror = mirror;
    this.metrics = metrics;
    this.states = states;
    this.executor = executor;
    this.clock = clock;
    this.backoff = backoff;
    this.scheduleNext = scheduleNext;
  }

  void add(TrackedSource source, SourceEvents listener) {
    listeners.put(source.id(), listener);
    sources.put(source.id(), source);
  }

  /** Tells {@code listener}, from now on, what the checks find for the source {@code id}. */
  void listen(SourceId id, SourceEvents listener) {
    listeners.put(id, listener);
  }

  /** Removes a source; returns true when no source is left. */
  boolean remove(SourceId id) {
    sources.remove(id);
    listeners.remove(id);
    return sources.isEmpty();
  }

  Collection<TrackedSource> sources() {
    return sources.values();
  }

  Mirror mirror() {
    return mirror;
  }

  /** The shortest interval of the sources here: the mirror is checked at least that often. */
  Duration interval() {
    return sources.values().stream().map(TrackedSource::interval).min(Duration::compareTo).orElse(Duration.ofMinutes(1));
  }

  /** Asks for a check; it starts now, or right after the one that is running. */
  void request(String cause) {
    synchronized (this) {
      pending.add(cause);
      if (running) {
        return;
      }
      running = true;
    }
    executor.execute(this::runWhilePending);
  }

  private void runWhilePending() {
    while (true) {
      String causes;
      synchronized (this) {
        if (pending.isEmpty()) {
          running = false;
          return;
        }
        causes = String.join(", ", pending);
        pending.clear();
      }
      try (Watchdog.Watch ignored = watch.get()) {
        scheduleNext.accept(check(causes));
      } catch (RuntimeException e) {
        log.error("check of {} failed unexpectedly", mirror, e);
        scheduleNext.accept(backoff.after(1));
      }
    }
  }

  /** Checks every source once; returns how long to wait before the next scheduled check. */
  Duration check(String cause) {
    Instant started = clock.instant();
    List<TrackedSource> tracked = List.copyOf(sources.values());
    if (tracked.isEmpty()) {
      return interval();
    }
    RemoteRefs refs = null;
    if (tracked.stream().anyMatch(s -> s.ref().needsRemoteCheck())) {
      try {
        refs = mirror.remoteRefs();
      } catch (SourceException e) {
        metrics.checked(false, true);
        return failAll(tracked, e, started);
      }
    }
    Map<TrackedSource, Revision> current = new LinkedHashMap<>();
    for (TrackedSource source : tracked) {
      try {
        current.put(source, refs != null ? refs.resolve(source.ref()) : mirror.resolve(source.ref()));
      } catch (SourceException e) {
        fail(source, e, started);
      }
    }
    List<Revision> moved = new ArrayList<>();
    current.forEach((source, revision) -> {
      if (!revision.equals(state(source.id()).revision().orElse(null))) {
        moved.add(revision);
      }
    });
    if (!moved.isEmpty()) {
      try {
        // After a restart every source "moves" from nothing to what the mirror on disk already has: no fetch.
        if (mirror.ensure(moved)) {
          metrics.fetched(true);
        }
      } catch (SourceException e) {
        metrics.fetched(false);
        // One source's bad commit (a pin no ref reaches) must not fail the others on this mirror: try each alone.
        ensureEach(current, moved, e, started);
      }
    }
    current.forEach((source, revision) -> {
      if (!sources.containsKey(source.id())) {
        return; // untracked while this check ran: report nothing for it
      }
      Optional<Revision> before = state(source.id()).revision();
      // compute, not get-then-put: a webhook may record its delivery on this state at the same moment.
      states.compute(source.id(), (id, state) -> (state == null ? SourceState.NEW : state).succeeded(revision, started));
      if (!before.equals(Optional.of(revision))) {
        log.info("{}: {} → {} ({})", source.id(), before.map(Revision::toString).orElse("none"), revision, cause);
        listener(source.id()).revision(source.id(), revision, cause);
      }
    });
    synchronized (this) {
      failures = current.size() == tracked.size() ? 0 : failures + 1;
    }
    metrics.checked(!moved.isEmpty(), current.size() != tracked.size());
    return current.size() == tracked.size() ? jittered(interval()) : backoffDelay();
  }

  private void ensureEach(Map<TrackedSource, Revision> current, List<Revision> moved, SourceException batch,
      Instant started) {
    if (moved.size() == 1) {
      current.entrySet().removeIf(entry -> {
        if (entry.getValue().equals(moved.get(0))) {
          fail(entry.getKey(), batch, started);
          return true;
        }
        return false;
      });
      return;
    }
    current.entrySet().removeIf(entry -> {
      if (!moved.contains(entry.getValue())) {
        return false;
      }
      try {
        mirror.ensure(List.of(entry.getValue()));
        return false;
      } catch (SourceException e) {
        fail(entry.getKey(), e, started);
        return true;
      }
    });
  }

  private Duration failAll(List<TrackedSource> tracked, SourceException e, Instant started) {
    synchronized (this) {
      failures++;
    }
    tracked.forEach(source -> fail(source, e, started));
    return backoffDelay();
  }

  private void fail(TrackedSource source, SourceException e, Instant started) {
    if (!sources.containsKey(source.id())) {
      return; // untracked while this check ran
    }
    SourceState state = states.compute(source.id(),
        (id, current) -> (current == null ? SourceState.NEW : current).failed(e.getMessage(), started));
    Duration retry = backoffDelay();
    log.warn("{}: {} (keeping {}; retry in {})", source.id(), e.getMessage(),
        state.revision().map(Revision::toString).orElse("no revision"), retry);
    listener(source.id()).failed(source.id(), e, retry);
  }

  private synchronized Duration backoffDelay() {
    Duration delay = backoff.after(Math.max(1, failures));
    return delay.compareTo(interval()) < 0 ? delay : interval();
  }

  // Untracked meanwhile: nobody listens any more.
  private SourceEvents listener(SourceId id) {
    return listeners.getOrDefault(id, SourceEvents.NOBODY);
  }

  private SourceState state(SourceId id) {
    return states.getOrDefault(id, SourceState.NEW);
  }

  static Duration jittered(Duration interval) {
    double factor = 1 + (ThreadLocalRandom.current().nextDouble() * 2 - 1) * JITTER;
    return Duration.ofMillis(Math.max(1, Math.round(interval.toMillis() * factor)));
  }
}
