package io.gitfn.bench;

import io.gitfn.testbed.Browser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a dashboard page costs the controller: the page loaded in full, over HTTP and in headless Chromium, and a few
 * viewers keeping it open as their browsers do (asking again every 3 s with the version they show). The memory, CPU
 * and API figures are the caller's: it measures the controller before and after {@link #keepOpen}.
 */
final class DashboardCost {

  static final int FULL_LOADS = 20;
  static final int BROWSER_LOADS = 5;
  static final Duration POLL = Duration.ofSeconds(3);

  /** A page loaded in full {@link #FULL_LOADS} times: its size, and how long each answer took. */
  record Loads(long bytes, double[] millis) {}

  /** What the viewers asked, and how the server answered. */
  record Viewing(long full, long unchanged, long failed) {

    /** Fails unless every request was answered, and the page in full at least once. */
    void requireAnswered() {
      if (failed > 0 || full == 0) {
        throw new IllegalStateException("the viewers' answers: " + this);
      }
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI page;

  DashboardCost(URI page) {
    this.page = page;
  }

  /** The page asked for {@link #FULL_LOADS} times without a version, one after another. */
  Loads served() throws Exception {
    double[] millis = new double[FULL_LOADS];
    long bytes = 0;
    for (int i = 0; i < FULL_LOADS; i++) {
      long start = System.nanoTime();
      HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(page).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      millis[i] = (System.nanoTime() - start) / 1e6;
      if (answer.statusCode() != 200) {
        throw new IllegalStateException(page + " answered " + answer.statusCode());
      }
      bytes = answer.body().length;
    }
    return new Loads(bytes, millis);
  }

  /** Navigation start to the load event in headless Chromium, {@link #BROWSER_LOADS} times. */
  double[] inBrowser() {
    double[] millis = new double[BROWSER_LOADS];
    try (Browser browser = Browser.start()) {
      for (int i = 0; i < BROWSER_LOADS; i++) {
        browser.open(page);
        Object loaded = browser.script("const n = performance.getEntriesByType('navigation')[0];"
            + " return n.loadEventEnd > 0 ? n.loadEventEnd - n.startTime : -1;");
        millis[i] = ((Number) loaded).doubleValue();
      }
    }
    return millis;
  }

  /**
   * {@code viewers} browsers with the page open for {@code duration}: each asks every {@link #POLL} with the version
   * it has, as the page's script does, and takes the new page when there is one.
   */
  Viewing keepOpen(int viewers, Duration duration) throws Exception {
    AtomicLong full = new AtomicLong();
    AtomicLong unchanged = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long end = System.nanoTime() + duration.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(viewers);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int v = 0; v < viewers; v++) {
        running.add(pool.submit(() -> {
          String version = null;
          while (System.nanoTime() < end) {
            HttpRequest.Builder ask = HttpRequest.newBuilder(page);
            if (version != null) {
              ask.header("If-None-Match", version);
            }
            try {
              HttpResponse<byte[]> answer = http.send(ask.build(), HttpResponse.BodyHandlers.ofByteArray());
              if (answer.statusCode() == 304) {
                unchanged.incrementAndGet();
              } else if (answer.statusCode() == 200) {
                full.incrementAndGet();
                version = answer.headers().firstValue("etag").orElse(null);
              } else {
                failed.incrementAndGet();
              }
              Thread.sleep(POLL.toMillis()); // the page's own pace, not a measurement
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return null;
            }
          }
          return null;
        }));
      }
      for (Future<?> viewer : running) {
        viewer.get();
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
    return new Viewing(full.get(), unchanged.get(), failed.get());
  }
}
