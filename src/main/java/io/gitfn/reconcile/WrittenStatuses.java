package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Read-your-writes for one kind's status: the status each pass wrote, kept until the informer shows it, so that the
 * next pass (and whoever reads the cache, a repository reading its Functions) starts from this write even when the
 * informer is seconds late. Without it a pass that read the status from before the last write would record again
 * what that write recorded (a revision applied, with no counts) and overwrite it.
 *
 * <p>An entry is used while the informer still holds the resourceVersion it held when the pass began, or an older
 * one than the write's (resourceVersions are etcd revisions, which only grow; one that does not parse counts as
 * caught up, as the SDK's own temporary cache would), and is dropped once the informer shows the write or anything
 * after it, or {@link #KEPT} after the write, by which time an informer that has not caught up is not merely late: a
 * thread of its own sweeps those out every few seconds, so a controller at rest keeps none. Only statuses are kept,
 * so its memory follows the rate of status writes, not the number of objects.
 *
 * <p>What a restart costs: nothing; a new controller's informers list every object afresh.
 *
 * @param <R> the kind
 */
public final class WrittenStatuses<R extends CustomResource<?, ?>> implements AutoCloseable {

  static final Duration KEPT = Duration.ofSeconds(30);
  private static final Duration SWEEP = Duration.ofSeconds(5);

  /**
   * @param informerVersion the resourceVersion the informer held when the pass that wrote began
   * @param writtenVersion the resourceVersion of the write
   */
  private record Written(String informerVersion, String writtenVersion, Object status, Instant at) {}

  private final Map<ResourceID, Written> written = new ConcurrentHashMap<>();
  private final Clock clock;
  private final KubernetesSerialization json;
  private final ScheduledExecutorService sweeper;

  /** @param kind names the sweeping thread */
  public WrittenStatuses(String kind, Clock clock, KubernetesSerialization json) {
    this.clock = clock;
    this.json = json;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "gitfn-written-" + kind + "-statuses");
      thread.setDaemon(true);
      return thread;
    });
    sweeper.scheduleWithFixedDelay(this::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Remembers what a pass wrote.
   *
   * @param read the resource as the informer gave it to the pass (a copy from {@link #freshest} keeps the informer's
   *     resourceVersion)
   * @param answer the API server's answer to the status write
   */
  void wrote(R read, R answer) {
    Written entry = new Written(read.getMetadata().getResourceVersion(), answer.getMetadata().getResourceVersion(),
        answer.getStatus(), clock.instant());
    written.put(ResourceID.fromResource(read), entry);
  }

  /** Drops the writes older than {@link #KEPT}. */
  void sweep() {
    Instant oldest = clock.instant().minus(KEPT);
    written.values().removeIf(w -> w.at().isBefore(oldest));
  }

  /**
   * {@code cached} as the informer has it, or, while the informer has not shown this controller's last status write
   * of it, a copy carrying that status. The copy is the caller's to change.
   */
  public R freshest(R cached) {
    return newer(cached).map(status -> withStatus(cached, status)).orElse(cached);
  }

  /** The status last written, when it is newer than what {@code cached} shows. */
  private Optional<Object> newer(R cached) {
    ResourceID id = ResourceID.fromResource(cached);
    Written entry = written.get(id);
    if (entry == null) {
      return Optional.empty();
    }
    String version = cached.getMetadata().getResourceVersion();
    boolean behind = version != null && (version.equals(entry.informerVersion())
        || older(version, entry.writtenVersion()));
    if (!behind || entry.at().isBefore(clock.instant().minus(KEPT))) {
      written.remove(id, entry);
      return Optional.empty();
    }
    return Optional.of(entry.status());
  }

  @SuppressWarnings("unchecked")
  private R withStatus(R cached, Object status) {
    R copy = json.clone(cached);
    ((CustomResource<?, Object>) copy).setStatus(json.clone(status));
    return copy;
  }

  private static boolean older(String version, String than) {
    try {
      return Long.parseLong(version) < Long.parseLong(than);
    } catch (NumberFormatException | NullPointerException e) {
      return false;
    }
  }

  /** How many statuses are kept now. */
  public int size() {
    return written.size();
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
