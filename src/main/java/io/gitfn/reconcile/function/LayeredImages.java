package io.gitfn.reconcile.function;

import io.gitfn.BuildInfo;
import io.gitfn.api.function.Function;
import io.gitfn.build.ContentKey;
import io.gitfn.build.RuntimeFiles;
import io.gitfn.image.LayerTooLargeException;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * Assembles Functions' images in-process ({@link FunctionImages}) off the reconcile threads: a pass starts the work
 * and returns, the work wakes the Function when it ends, and the next pass reads the outcome. A slow registry holds
 * the threads of this small pool, never a reconcile thread; each of its requests has the push deadline, and the heap
 * the pool holds is at most its size times the source layer's cap.
 *
 * <p>Memory beyond a pass, one entry per Function: the outcome not yet in its history, the dependency image it waits
 * for (kept until the install Job ends), or the failure it waits out. What a restart costs: each such Function asks the
 * registry once more; a push made twice gives the same digest, so nothing a pass decides changes.
 */
public final class LayeredImages implements AutoCloseable {

  /** How many Functions' images are assembled at once; the rest wait their turn in the pool's queue. */
  public static final int THREADS = 4;

  /** How long a Function waits before it asks a registry that failed again. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(30);

  /** Where a Function's image stands. */
  sealed interface Progress {
    /** The registry is being asked, or the image pushed. */
    record Working() implements Progress {}

    /** Pushed: {@code image} names it by tag and digest, and the push says how much travelled. */
    record Pushed(String image, ImageAssembler.Pushed push) implements Progress {}

    /**
     * The dependency image is missing: an install Job must make it on {@code base}.
     *
     * @param askedAt when the registry was asked: an install Job that ended before then did not make it
     */
    record NeedsDependencies(ImageName dependencyImage, ImageName base, ImageName runtimeImage,
        boolean runtimePresent, Instant askedAt) implements Progress {}

    /** The registry failed or refused; asked again from {@code retryAt}. */
    record Failed(String message, Instant retryAt) implements Progress {}

    /** The source cannot be a layer (it passes the cap): never asked again for this key. */
    record Refused(String message) implements Progress {}
  }

  private record Entry(ContentKey key, CompletableFuture<Progress> outcome) {}

  private final ConcurrentMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final ExecutorService callers;
  private final ExecutorService requests;
  private final Duration deadline;
  private final Clock clock;
  private final String userAgent = "gitfn/" + BuildInfo.load().gitfn();

  /** @param deadline how long each registry request may take */
  public LayeredImages(Duration deadline, Clock clock) {
    this.deadline = deadline;
    this.clock = clock;
    // Each caller waits on one request at a time, so as many request threads as callers never deadlock.
    this.callers = pool(daemons("gitfn-layered-image-"));
    this.requests = pool(daemons("gitfn-registry-request-"));
  }

  /**
   * What is known of {@code fn}'s image of {@code key}; empty when nothing is under way, and the caller
   * {@link #start}s it. A pushed image stays until a pass finds it in the Function's history ({@link #forget}), so
   * a pass that reads a Function from before that history was written pushes nothing again.
   */
  Optional<Progress> progress(Function fn, ContentKey key) {
    String id = id(fn);
    Entry entry = entries.get(id);
    if (entry == null) {
      return Optional.empty();
    }
    if (!entry.key().equals(key)) {
      entries.remove(id, entry); // the spec moved on; the work for the old key ends unread
      return Optional.empty();
    }
    if (!entry.outcome().isDone()) {
      return Optional.of(new Progress.Working());
    }
    Progress outcome = entry.outcome().join();
    if (outcome instanceof Progress.Failed failed && !clock.instant().isBefore(failed.retryAt())) {
      entries.remove(id, entry);
      return Optional.empty();
    }
    return Optional.of(outcome);
  }

  /**
   * Starts assembling {@code fn}'s image with {@code access}'s credentials; {@code done} hears the Function's
   * namespace and name when the outcome is there.
   */
  void start(Function fn, ContentKey key, FunctionImages.Request request, RegistryAccess access,
      BiConsumer<String, String> done) {
    String namespace = fn.getMetadata().getNamespace();
    String name = fn.getMetadata().getName();
    CompletableFuture<Progress> outcome = CompletableFuture.supplyAsync(() -> build(request, access), callers);
    entries.put(id(fn), new Entry(key, outcome));
    outcome.whenComplete((result, error) -> done.accept(namespace, name));
  }

  /** Forgets what is known of {@code fn}, so that its next pass asks the registry again. */
  void forget(Function fn) {
    entries.remove(id(fn));
  }

  /** Records that {@code fn}'s image of {@code key} failed for a reason found outside; asked again later. */
  void fail(Function fn, ContentKey key, String message) {
    entries.put(id(fn), new Entry(key, CompletableFuture.completedFuture(failed(message))));
  }

  private Progress build(FunctionImages.Request request, RegistryAccess access) {
    Instant asked = clock.instant();
    try {
      ImageAssembler assembler = ImageAssembler.boundedAnswers(access, userAgent, requests, deadline);
      FunctionImages.Outcome outcome = new FunctionImages(assembler).build(request);
      if (outcome instanceof FunctionImages.Outcome.Pushed pushed) {
        return new Progress.Pushed(request.target() + "@" + pushed.push().digest(), pushed.push());
      }
      FunctionImages.Outcome.NeedsDependencies needs = (FunctionImages.Outcome.NeedsDependencies) outcome;
      return new Progress.NeedsDependencies(needs.dependencyImage(), needs.base(), needs.runtimeImage(),
          needs.runtimePresent(), asked);
    } catch (LayerTooLargeException e) {
      return new Progress.Refused("the Function's source layer (its " + RuntimeFiles.of(request.runtime())
          .describeSourceLayer() + ") cannot be pushed: " + e.getMessage() + "; make those files smaller");
    } catch (RegistryFailure e) {
      return failed(e.getMessage());
    } catch (RuntimeException e) {
      return failed("assembling " + request.target() + " failed: " + e);
    }
  }

  private Progress.Failed failed(String message) {
    return new Progress.Failed(message, clock.instant().plus(RETRY_AFTER));
  }

  private static String id(Function fn) {
    return fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }

  /** {@link #THREADS} threads, started as work comes and ended after a minute without: an idle controller has none. */
  private static ExecutorService pool(ThreadFactory threads) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES,
        new LinkedBlockingQueue<>(), threads);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return work -> {
      Thread thread = new Thread(work, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public void close() {
    callers.shutdownNow();
    requests.shutdownNow();
  }
}
