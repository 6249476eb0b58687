package io.gitfn.source;

import io.gitfn.source.SourceException.Kind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one mirror's network calls (ls-remote, fetch) on threads of their own, so that {@code --git-timeout} bounds a
 * whole call. JGit's timeout bounds each read, and a server that answers one byte every few seconds never trips
 * it. A call past its deadline is reported as a TIMEOUT at once and its caller goes on; the call's thread is left
 * to end when the server closes or a read times out (interrupting it does not stop a blocked socket read), and
 * until it has, the mirror starts no other network call: a slow server holds at most one thread and one
 * connection, and only its own repository waits for it.
 */
final class NetworkCalls {

  /** A JGit call, which may throw whatever JGit throws. */
  interface Call<T> {
    T call() throws Exception;
  }

  private static final AtomicInteger THREAD = new AtomicInteger();
  // Unbounded, but one call at a time per mirror and one overdue one at most: the mirrors bound it.
  private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "gitfn-git-io-" + THREAD.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  private final String url;
  // Set when a call outlived its deadline; done when that call's thread has really ended (a cancelled Future says
  // it is done at once, though JGit's blocked read goes on).
  private final AtomicReference<CompletableFuture<Void>> overdue = new AtomicReference<>();

  NetworkCalls(String url) {
    this.url = url;
  }

  /**
   * The call's result, within {@code deadline}.
   *
   * @throws SourceException TIMEOUT when the call, or an earlier one that outlived its deadline, is still running
   * @throws Exception whatever the call threw
   */
  <T> T run(String what, Duration deadline, Call<T> call) throws Exception {
    CompletableFuture<Void> late = overdue.get();
    if (late != null && !late.isDone()) {
      throw new SourceException(Kind.TIMEOUT, "an earlier network call to " + url + " is still running, "
          + "long past its deadline of " + deadline.toSeconds() + " s; the server is too slow");
    }
    overdue.compareAndSet(late, null);
    CompletableFuture<Void> ended = new CompletableFuture<>();
    Future<T> future = THREADS.submit(() -> {
      try {
        return call.call();
      } finally {
        ended.complete(null);
      }
    });
    try {
      return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      overdue.set(ended);
      throw new SourceException(Kind.TIMEOUT, what + " " + url + " did not finish within " + deadline.toSeconds()
          + " s (--git-timeout); the server is too slow or sends too much");
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new SourceException(Kind.TIMEOUT, "interrupted while waiting for " + what + " " + url, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Whether a call that outlived its deadline is still running. */
  boolean lingering() {
    CompletableFuture<Void> late = overdue.get();
    return late != null && !late.isDone();
  }
}
