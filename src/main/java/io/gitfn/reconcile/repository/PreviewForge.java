package io.gitfn.reconcile.repository;

import io.gitfn.notify.CommentMarker;
import io.gitfn.notify.ForgeException;
import io.gitfn.notify.OpenPullRequest;
import io.gitfn.notify.OpenPullRequests;
import io.gitfn.notify.PullRequestComments;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.trigger.SourceId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forge calls of previews, off the reconcile threads: a repository's open pull requests, and gitfn's comment on
 * each. A pass asks; the answer wakes the repository, whose next pass reads it. At most one listing per repository
 * and one comment per pull request are in flight, and {@value #THREADS} threads serve every repository, each request
 * bounded by the sender's timeouts, so a slow forge delays its own previews and holds no reconcile thread.
 *
 * <p>What a restart costs: a listing in flight or not yet read is asked for again when the repository's
 * {@code status.pullRequestsListedAt} says one is due; a comment the forge took whose news the status does not show
 * yet is sent again, which the forge answers as unchanged (the comment is found by its marker and not edited).
 */
public final class PreviewForge implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PreviewForge.class);
  static final int THREADS = 2;
  /** A comment the forge refused or failed is asked for again after this long at the soonest. */
  static final Duration RETRY_COMMENT = Duration.ofMinutes(1);

  private record Failed(String said, Instant at) {}

  /** A finished listing: the open pull requests, or why there are none. */
  record Listing(Instant at, Optional<List<OpenPullRequest>> open, String error) {}

  private final OpenPullRequests lists;
  private final PullRequestComments comments;
  private final Clock clock;
  private final Consumer<SourceId> wake;
  private final ExecutorService executor;
  private final Map<SourceId, Listing> listings = new ConcurrentHashMap<>();
  private final Set<SourceId> listing = ConcurrentHashMap.newKeySet();
  private final Map<String, String> commented = new ConcurrentHashMap<>();
  private final Set<String> commenting = ConcurrentHashMap.newKeySet();
  private final Map<String, Failed> failed = new ConcurrentHashMap<>();

  /** @param wake told the repository whose listing or comment the forge answered */
  public PreviewForge(OpenPullRequests lists, PullRequestComments comments, Clock clock, Consumer<SourceId> wake) {
    this.lists = lists;
    this.comments = comments;
    this.clock = clock;
    this.wake = wake;
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newFixedThreadPool(THREADS, r -> {
      Thread thread = new Thread(r, "gitfn-previews-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Lists {@code id}'s open pull requests unless a listing is under way. */
  void list(SourceId id, ForgeReports.Access access) {
    if (!listing.add(id)) {
      return;
    }
    executor.execute(() -> {
      Listing done;
      try {
        done = new Listing(clock.instant(), Optional.of(lists.list(access.repository(), access.token())), "");
      } catch (ForgeException | IllegalArgumentException e) {
        log.info("cannot list the open pull requests of {} for {}: {}", access.repository().fullPath(), id,
            e.getMessage());
        done = new Listing(clock.instant(), Optional.empty(), e.getMessage());
      } finally {
        listing.remove(id);
      }
      listings.put(id, done);
      wake.accept(id);
    });
  }

  /** The listing finished since the last call, once. */
  Optional<Listing> takeListing(SourceId id) {
    return Optional.ofNullable(listings.remove(id));
  }

  /**
   * Makes gitfn's comment on pull request {@code number} say {@code body}, unless this process saw the forge take
   * it, or is sending a comment there now (the pass after that one's answer asks again if it still differs).
   *
   * @param said the comment's news in a line, as {@link #commented} answers it and the status records it
   */
  void comment(SourceId id, ForgeReports.Access access, long number, String said, String body) {
    String key = id + "#" + number;
    Failed failure = failed.get(key);
    if (said.equals(commented.get(key)) || failure != null && failure.said().equals(said)
        && failure.at().plus(RETRY_COMMENT).isAfter(clock.instant()) || !commenting.add(key)) {
      return;
    }
    executor.execute(() -> {
      try {
        comments.upsert(access.repository(), access.token(), number,
            CommentMarker.preview(id.namespace(), id.name()), body);
        commented.put(key, said);
        failed.remove(key);
      } catch (ForgeException | IllegalArgumentException e) {
        failed.put(key, new Failed(said, clock.instant()));
        log.info("cannot comment on pull request #{} of {} for {}: {}", number, access.repository().fullPath(), id,
            e.getMessage());
      } finally {
        commenting.remove(key);
      }
      wake.accept(id);
    });
  }

  /** The news of the comment the forge last took on pull request {@code number}, since this process started. */
  Optional<String> commented(SourceId id, long number) {
    return Optional.ofNullable(commented.get(id + "#" + number));
  }

  /** Whether the forge refused or failed the comment saying {@code said} on pull request {@code number}. */
  boolean failed(SourceId id, long number, String said) {
    Failed failure = failed.get(id + "#" + number);
    return failure != null && failure.said().equals(said);
  }

  /** Drops what is kept of {@code id}'s pull request {@code number}. */
  void forget(SourceId id, long number) {
    commented.remove(id + "#" + number);
    failed.remove(id + "#" + number);
  }

  /** Drops what is kept of a deleted repository. */
  void forget(SourceId id) {
    listings.remove(id);
    commented.keySet().removeIf(key -> key.startsWith(id + "#"));
    failed.keySet().removeIf(key -> key.startsWith(id + "#"));
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
