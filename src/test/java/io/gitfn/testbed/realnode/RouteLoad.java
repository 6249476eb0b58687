package io.gitfn.testbed.realnode;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Users calling paths of one host through the ingress controller without a pause while a route moves: a path
 * answers 200 while the route sends it to a Function and 404 while it does not. A failure is any other answer, a
 * request that got none, or a path that goes back to an answer it had left (a route that flaps while it moves); a
 * move from 200 to 404 or back, once, is the route doing what Git says.
 */
public final class RouteLoad implements AutoCloseable {

  private final Traefik traefik;
  private final String host;
  private final List<Thread> clients = new ArrayList<>();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  // Each path's statuses, a new entry each time the status changes.
  private final Map<String, List<Integer>> statuses = new LinkedHashMap<>();
  private final Map<String, String> lastBodies = new LinkedHashMap<>();
  private final AtomicLong count = new AtomicLong();
  private volatile boolean running = true;

  private RouteLoad(Traefik traefik, String host) {
    this.traefik = traefik;
    this.host = host;
  }

  /** One client for each of {@code paths}, calling it through {@code traefik} with {@code Host: host}. */
  public static RouteLoad start(Traefik traefik, String host, String... paths) {
    RouteLoad load = new RouteLoad(traefik, host);
    for (String path : paths) {
      load.statuses.put(path, new ArrayList<>());
      Thread client = new Thread(() -> load.call(path), "route-load" + path.replace('/', '-'));
      client.setDaemon(true);
      load.clients.add(client);
      client.start();
    }
    return load;
  }

  private void call(String path) {
    while (running) {
      try {
        Traefik.Answer answer = traefik.get(host, path);
        record(path, answer);
      } catch (UncheckedIOException e) {
        failures.add(path + ": " + e.getMessage() + ": " + e.getCause().getMessage());
      }
    }
  }

  private synchronized void record(String path, Traefik.Answer answer) {
    count.incrementAndGet();
    if (answer.status() != 200 && answer.status() != 404) {
      failures.add(path + ": " + answer.status() + " " + answer.body());
      return;
    }
    List<Integer> seen = statuses.get(path);
    if (seen.isEmpty() || seen.get(seen.size() - 1) != answer.status()) {
      seen.add(answer.status());
    }
    if (answer.status() == 200) {
      lastBodies.put(path, answer.body());
    }
  }

  /** Each path's statuses in the order they changed, as {@code /a=[200, 404]}. */
  public synchronized Map<String, List<Integer>> statuses() {
    Map<String, List<Integer>> copy = new LinkedHashMap<>();
    statuses.forEach((path, seen) -> copy.put(path, List.copyOf(seen)));
    return copy;
  }

  /** The status {@code path} answers now, or 0 before its first answer. */
  public synchronized int statusOf(String path) {
    List<Integer> seen = statuses.get(path);
    return seen.isEmpty() ? 0 : seen.get(seen.size() - 1);
  }

  public synchronized String lastBody(String path) {
    return lastBodies.getOrDefault(path, "");
  }

  public List<String> failures() {
    return List.copyOf(failures);
  }

  public long requests() {
    return count.get() + failures.size();
  }

  /** Lets {@code more} answers come, so that what follows a change is seen too, then stops the clients. */
  public void stopAfterAnswers(int more) throws InterruptedException {
    long until = count.get() + more;
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (count.get() < until && System.nanoTime() < deadline) {
      Thread.sleep(50); // waiting for answers, not measuring anything
    }
    close();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread client : clients) {
      client.join(Duration.ofSeconds(15).toMillis());
    }
  }
}
