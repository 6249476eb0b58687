package io.gitfn.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Client threads that call one URL in a loop from start to {@link #stop}: they count every answer that is not a
 * 200 (or no answer at all) as a failure, and they are the clock for "a new version is serving" — the first 200
 * whose body is the one {@link #expect}ed.
 */
final class Callers {

  /** What the calls saw: answers 200, failures, and the first few failures' words. */
  record Result(int ok, int failures, List<String> firstFailures) {}

  private record Expectation(String body, CompletableFuture<Long> seen) {}

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final HttpRequest request;
  private final Duration pause;
  private final ExecutorService threads;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicInteger ok = new AtomicInteger();
  private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  private volatile Expectation expected;

  private Callers(URI url, int clients, Duration pause) {
    this.request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build();
    this.pause = pause;
    this.threads = Executors.newFixedThreadPool(clients, r -> {
      Thread thread = new Thread(r, "bench-caller");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** {@code clients} threads, each calling again {@code pause} after an answer (zero: at once). */
  static Callers start(URI url, int clients, Duration pause) {
    Callers callers = new Callers(url, clients, pause);
    for (int i = 0; i < clients; i++) {
      callers.threads.submit(callers::call);
    }
    return callers;
  }

  private void call() {
    while (running.get()) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        long at = System.nanoTime();
        if (response.statusCode() == 200) {
          ok.incrementAndGet();
          Expectation e = expected;
          if (e != null && e.body().equals(response.body())) {
            e.seen().complete(at);
          }
        } else {
          failures.add("HTTP " + response.statusCode() + ": " + response.body());
        }
      } catch (IOException e) {
        failures.add(e.toString());
      } catch (InterruptedException e) {
        return;
      }
      if (!pause.isZero()) {
        try {
          Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** From now on, watches for the first 200 with {@code body}; its time is what {@link #await} returns. */
  void expect(String body) {
    expected = new Expectation(body, new CompletableFuture<>());
  }

  /** The {@link System#nanoTime} at which the expected body first came back. */
  long await(Duration limit) throws Exception {
    try {
      return expected.seen().get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no call answered \"" + expected.body() + "\" within " + limit.toSeconds()
          + " s; failures so far: " + failures.subList(0, Math.min(3, failures.size())));
    }
  }

  Result stop() throws InterruptedException {
    running.set(false);
    threads.shutdown();
    if (!threads.awaitTermination(30, TimeUnit.SECONDS)) {
      threads.shutdownNow();
    }
    synchronized (failures) {
      return new Result(ok.get(), failures.size(), List.copyOf(failures.subList(0, Math.min(5, failures.size()))));
    }
  }
}
