package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Clients that call a URL without a pause, as users of a Function would while it is changed: every answer other
 * than a 200, and every request that got no answer, is a failure.
 */
public final class ServiceLoad implements AutoCloseable {

  private final URI url;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Thread> clients = new ArrayList<>();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  // Each answer that differs from the one before it, in the order they came.
  private final List<String> answers = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> last = new AtomicReference<>("");
  private final AtomicLong count = new AtomicLong();
  private volatile boolean running = true;

  private ServiceLoad(URI url) {
    this.url = url;
  }

  public static ServiceLoad start(URI url, int clients) {
    ServiceLoad load = new ServiceLoad(url);
    for (int i = 0; i < clients; i++) {
      Thread client = new Thread(load::call, "load-" + i);
      client.setDaemon(true);
      load.clients.add(client);
      client.start();
    }
    return load;
  }

  private void call() {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET().build();
    while (running) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          failures.add(response.statusCode() + " " + response.body());
        } else {
          answered(response.body());
        }
      } catch (IOException e) {
        failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void answered(String body) {
    count.incrementAndGet();
    if (!body.equals(last.getAndSet(body))) {
      answers.add(body);
    }
  }

  public String lastAnswer() {
    return last.get();
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

  public List<String> failures() {
    return List.copyOf(failures);
  }

  public List<String> answers() {
    return List.copyOf(answers);
  }

  public long requests() {
    return count.get() + failures.size();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread client : clients) {
      client.join(Duration.ofSeconds(15).toMillis());
    }
  }
}
