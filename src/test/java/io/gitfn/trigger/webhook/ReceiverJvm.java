package io.gitfn.trigger.webhook;

import java.time.Clock;

/**
 * A webhook receiver alone in a JVM, for tests that send it what an attacker would: it tracks one repository,
 * {@link #REPOSITORY} at {@code refs/heads/main} with the secret {@link #SECRET}, prints {@code listening <port>}
 * once it serves and {@code triggered <source>} for every trigger, and runs until it is killed.
 */
public final class ReceiverJvm {

  static final String REPOSITORY = "https://git.example.com/platform/orders";
  static final String SECRET = "flood-test-secret";

  private ReceiverJvm() {}

  public static void main(String[] args) throws Exception {
    RecordingTargets targets = new RecordingTargets() {
      @Override
      void onTrigger(String name) {
        System.out.println("triggered " + name);
      }
    }.track("team/orders", REPOSITORY, "refs/heads/main", SECRET);
    WebhookServer server = WebhookServer.start("127.0.0.1", 0,
        new WebhookReceiver(targets, WebhookSettings.defaults(), Clock.systemUTC()));
    System.out.println("listening " + server.baseUri().getPort());
    Thread.currentThread().join();
  }
}
