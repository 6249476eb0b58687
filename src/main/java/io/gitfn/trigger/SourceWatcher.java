package io.gitfn.trigger;

import io.gitfn.health.Watchdog;
import io.gitfn.source.Backoff;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.trigger.webhook.PushEvent;
import io.gitfn.trigger.webhook.WebhookTarget;
import io.gitfn.trigger.webhook.WebhookTargets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.JobBuilder;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.StdSchedulerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every tracked source's revision current: Quartz polls each mirror at the shortest interval of the
 * sources on it (with jitter), webhooks and manual triggers check at once, and checks of one mirror are
 * shared and never overlap (see {@link MirrorChecks}).
 *
 * <p>Polling is per mirror, not per source, so that a thousand sources on ten repositories cost ten
 * {@code ls-remote}s per cycle. Each source is still checked at least as often as its own interval asks.
 */
public final class SourceWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SourceWatcher.class);
  private static final String GROUP = "gitfn-source";

  private final MirrorCache mirrors;
  private final Clock clock;
  private final Backoff backoff;
  private final Scheduler scheduler;
  private final ExecutorService checkThreads;
  private final Map<Mirror, MirrorChecks> byMirror = new ConcurrentHashMap<>();
  private final Map<SourceId, MirrorChecks> bySource = new ConcurrentHashMap<>();
  private final Map<SourceId, SourceState> states = new ConcurrentHashMap<>();
  private final SourceMetrics metrics;
  private final Watchdog watchdog;
  private final Duration checkBudget;

  public SourceWatcher(MirrorCache mirrors, Clock clock, Backoff backoff, int checkThreads) {
    this(mirrors, clock, backoff, checkThreads, SourceMetrics.unexported());
  }

  /**
   * @param checkThreads how many mirrors may be checked at once. A check that waits on a slow server holds one of
   *     them until its deadline, so there should be more than slow servers; threads that have nothing to do end
   *     after a minute, so a large number costs nothing while checks are quick.
   */
  public SourceWatcher(MirrorCache mirrors, Clock clock, Backoff backoff, int checkThreads, SourceMetrics metrics) {
    this(mirrors, clock, backoff, checkThreads, metrics, new Watchdog(clock), Duration.ofMinutes(5));
  }

  /**
   * @param watchdog watches each check; one running past {@code checkBudget} and a grace period is reported stuck
   *     on {@code /healthz}. A check makes a few calls, each bounded by {@code --git-timeout}, so only a hung
   *     thread gets there.
   */
  public SourceWatcher(MirrorCache mirrors, Clock clock, Backoff backoff, int checkThreads, SourceMetrics metrics,
      Watchdog watchdog, Duration checkBudget) {
    this.watchdog = watchdog;
    this.checkBudget = checkBudget;
    this.metrics = metrics;
    this.mirrors = mirrors;
    this.clock = clock;
    this.backoff = backoff;
    AtomicInteger thread = new AtomicInteger();
    this.checkThreads = ElasticPool.create(checkThreads, r -> {
      Thread t = new Thread(r, "gitfn-source-check-" + thread.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.scheduler = startScheduler();
  }

  /**
   * Starts tracking a source, or updates it (a new interval, ref or secret takes effect at once, without a
   * restart), and tells {@code listener} what its checks find. A new or changed source is checked right away;
   * tracking an unchanged one again does nothing, so a reconciler may call this on every pass.
   */
  public synchronized void track(TrackedSource source, SourceEvents listener) {
    MirrorChecks previous = bySource.get(source.id());
    if (previous != null && previous.sources().contains(source)) {
      previous.listen(source.id(), listener);
      return;
    }
    if (previous != null && previous.sources().stream()
        .anyMatch(old -> old.id().equals(source.id()) && !old.ref().equals(source.ref()))) {
      states.remove(source.id()); // the last revision was of another ref; nobody may apply it now
    }
    Mirror mirror = mirrors.mirror(source.url(), source.credentials());
    if (previous != null && previous.mirror() != mirror) {
      untrack(source.id());
    }
    MirrorChecks checks = byMirror.computeIfAbsent(mirror, this::newChecks);
    checks.add(source, listener);
    bySource.put(source.id(), checks);
    checks.request("tracked " + source.id());
  }

  /** Stops tracking a source; its mirror's schedule stops when no source is left on it. */
  public synchronized void untrack(SourceId id) {
    MirrorChecks checks = bySource.remove(id);
    states.remove(id);
    if (checks != null && checks.remove(id)) {
      byMirror.remove(checks.mirror());
      unschedule(checks);
      // Without this, every rotated Secret or changed URL would leave a Repository and an SSH client open.
      mirrors.release(checks.mirror());
    }
  }

  /** Checks a source now, as a manual request ({@code gitfn.io/requested-at}) asks. */
  public void trigger(SourceId id, String reason) {
    MirrorChecks checks = bySource.get(id);
    if (checks == null) {
      throw new IllegalArgumentException(id + " is not tracked");
    }
    checks.request(reason);
  }

  public SourceState state(SourceId id) {
    return states.getOrDefault(id, SourceState.NEW);
  }

  /** The sources a webhook delivery for a repository may trigger: each tracked source once, by its mirror. */
  public WebhookTargets webhookTargets() {
    return repository -> {
      List<WebhookTarget> targets = new ArrayList<>();
      for (MirrorChecks checks : byMirror.values()) {
        for (TrackedSource source : checks.sources()) {
          if (source.url().matchKey().equals(repository.matchKey())) {
            targets.add(new SourceTarget(source, checks));
          }
        }
      }
      return targets;
    };
  }

  /** Whether a push to the full ref {@code pushed} can move what {@code selector} tracks. */
  static boolean tracks(RefSelector selector, String pushed) {
    if (selector instanceof RefSelector.Branch b) {
      return pushed.equals("refs/heads/" + b.name());
    }
    if (selector instanceof RefSelector.Tag t) {
      return pushed.equals("refs/tags/" + t.name());
    }
    if (selector instanceof RefSelector.SemverRange s) {
      return pushed.startsWith("refs/tags/" + (s.tagPrefix() == null ? "" : s.tagPrefix()));
    }
    if (selector instanceof RefSelector.BranchOrTag n) {
      return pushed.equals("refs/heads/" + n.name()) || pushed.equals("refs/tags/" + n.name());
    }
    return false; // a pinned commit never moves
  }

  private final class SourceTarget implements WebhookTarget {
    private final TrackedSource source;
    private final MirrorChecks checks;

    SourceTarget(TrackedSource source, MirrorChecks checks) {
      this.source = source;
      this.checks = checks;
    }

    @Override
    public String name() {
      return source.id().toString();
    }

    @Override
    public Optional<String> secret() {
      return source.webhookSecret();
    }

    @Override
    public boolean moves(String ref) {
      return tracks(source.ref(), ref);
    }

    @Override
    public void trigger(PushEvent event) {
      states.compute(source.id(), (id, state) -> (state == null ? SourceState.NEW : state)
          .delivered(new SourceState.Delivery(event.forge().pathSegment(), event.deliveryId(), clock.instant())));
      checks.request("webhook " + event.forge().pathSegment() + " " + event.deliveryId());
    }
  }

  private MirrorChecks newChecks(Mirror mirror) {
    JobKey job = JobKey.jobKey(mirror.toString(), GROUP);
    MirrorChecks checks = new MirrorChecks(mirror, states, checkThreads, clock, backoff,
        delay -> schedule(job, delay), metrics, () -> watchdog.watch("the Git check of " + mirror, checkBudget, false));
    try {
      scheduler.addJob(
          JobBuilder.newJob(PollJob.class).withIdentity(job).storeDurably().usingJobData(new org.quartz.JobDataMap(
              Map.of(PollJob.POLL, checks))).build(),
          true);
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot schedule checks of " + mirror, e);
    }
    return checks;
  }

  /** Replaces the mirror's one trigger with one that fires after {@code delay}. */
  private void schedule(JobKey job, Duration delay) {
    TriggerKey key = TriggerKey.triggerKey(job.getName(), GROUP);
    var trigger = TriggerBuilder.newTrigger().withIdentity(key).forJob(job)
        .startAt(new Date(clock.millis() + delay.toMillis())).build();
    try {
      if (!scheduler.checkExists(job)) {
        return; // untracked meanwhile
      }
      if (scheduler.checkExists(key)) {
        scheduler.rescheduleJob(key, trigger);
      } else {
        scheduler.scheduleJob(trigger);
      }
    } catch (SchedulerException e) {
      log.error("cannot schedule the next check of {}", job.getName(), e);
    }
  }

  private void unschedule(MirrorChecks checks) {
    try {
      scheduler.deleteJob(JobKey.jobKey(checks.mirror().toString(), GROUP));
    } catch (SchedulerException e) {
      log.warn("cannot unschedule {}", checks.mirror(), e);
    }
  }

  private static Scheduler startScheduler() {
    Properties properties = new Properties();
    properties.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, "gitfn-source-" + System.identityHashCode(properties));
    properties.setProperty("org.quartz.threadPool.threadCount", "2");
    properties.setProperty("org.quartz.threadPool.threadNamePrefix", "gitfn-poll");
    properties.setProperty("org.quartz.threadPool.makeThreadsDaemons", "true");
    properties.setProperty("org.quartz.scheduler.makeSchedulerThreadDaemon", "true");
    properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    try {
      Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
      scheduler.start();
      return scheduler;
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot start the Quartz scheduler", e);
    }
  }

  @Override
  public void close() {
    try {
      scheduler.shutdown(false);
    } catch (SchedulerException e) {
      log.warn("Quartz did not shut down cleanly", e);
    }
    checkThreads.shutdownNow();
  }
}
