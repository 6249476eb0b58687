package io.gitfn.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Calls a URL at a fixed rate, one call at a time on one kept-alive connection, and times each call from the moment
 * it was due rather than from when it was sent: a slow answer that delays the next call counts against that call
 * too, so a stall is not hidden by the load generator waiting for it.
 */
final class FixedRate {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final int perSecond;

  FixedRate(int perSecond) {
    this.perSecond = perSecond;
  }

  /** Calls {@code url} for {@code duration}; returns each call's latency in milliseconds. */
  double[] call(URI url, Duration duration) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build();
    int calls = (int) (duration.toMillis() * perSecond / 1000);
    long period = 1_000_000_000L / perSecond;
    double[] latencies = new double[calls];
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      long due = start + i * period;
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        LockSupport.parkNanos(wait);
      }
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      latencies[i] = (System.nanoTime() - due) / 1e6;
      if (response.statusCode() != 200) {
        throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
      }
    }
    return latencies;
  }
}
