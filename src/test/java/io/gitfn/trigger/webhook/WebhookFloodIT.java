package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gitfn.testbed.ComponentProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What anyone who can reach the webhook port can send, against a receiver in a JVM with less heap than the
 * controller's image gives it: the receiver keeps answering, stays within its heap, and a signed push still
 * triggers its source while the flood runs.
 */
class WebhookFloodIT {

  private static final Pattern LISTENING = Pattern.compile("listening (\\d+)");
  // Less than the image's -Xmx96m: what holds here holds in the controller, whose heap also has its caches.
  private static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-Xmx64m", "-XX:+ExitOnOutOfMemoryError",
      "-XX:TieredStopAtLevel=1");
  private static final int FLOODERS = 20;
  private static final int ROUNDS = 10;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private ComponentProcess receiver;
  private Path log;
  private URI generic;

  @BeforeEach
  void startReceiver(@TempDir Path dir) throws Exception {
    log = dir.resolve("receiver.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ReceiverJvm.class.getName()));
    receiver = ComponentProcess.start("webhook-receiver", log, command);
    await().atMost(Duration.ofSeconds(60)).until(() -> !receiver.isAlive() || port() > 0);
    assertThat(receiver.isAlive()).as("the receiver started; its log:\n%s", receiver.tail(30)).isTrue();
    generic = URI.create("http://127.0.0.1:" + port() + "/hooks/generic");
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  @Test
  void aFloodOfJunkMegabytesNeitherExhaustsTheHeapNorKeepsASignedPushOut() throws Exception {
    byte[] junk = junk();
    ExecutorService flooders = Executors.newFixedThreadPool(FLOODERS);
    List<Future<List<Integer>>> answers = new ArrayList<>();
    for (int i = 0; i < FLOODERS; i++) {
      answers.add(flooders.submit(() -> {
        List<Integer> statuses = new ArrayList<>();
        for (int round = 0; round < ROUNDS && receiver.isAlive(); round++) {
          statuses.add(post(junk, "sha256=" + "0".repeat(64)));
        }
        return statuses;
      }));
    }
    byte[] push = ("{\"repository\":\"" + ReceiverJvm.REPOSITORY + "\",\"ref\":\"refs/heads/main\",\"after\":\""
        + "a".repeat(40) + "\"}").getBytes(StandardCharsets.UTF_8);
    int pushed = post(push, Samples.sha256Header(ReceiverJvm.SECRET, push));
    List<Integer> junkStatuses = new ArrayList<>();
    for (Future<List<Integer>> answer : answers) {
      junkStatuses.addAll(answer.get());
    }
    flooders.shutdown();

    String output = Files.readString(log);
    assertThat(output).as("the receiver's log").doesNotContain("OutOfMemoryError");
    assertThat(receiver.isAlive()).as("the receiver survived the flood; its log:\n%s", receiver.tail(30)).isTrue();
    assertThat(pushed).as("the signed push during the flood").isEqualTo(202);
    assertThat(output).contains("triggered team/orders");
    assertThat(junkStatuses).hasSize(FLOODERS * ROUNDS)
        .as("junk is refused as unverified, or told to come back later").allMatch(s -> s == 401 || s == 503);
  }

  /** A megabyte of tiny JSON objects around a real repository and ref, so that only the signature is wrong. */
  private static byte[] junk() {
    StringBuilder body = new StringBuilder("{\"repository\":\"" + ReceiverJvm.REPOSITORY
        + "\",\"ref\":\"refs/heads/main\",\"junk\":[");
    while (body.length() < WebhookSettings.DEFAULT_MAX_BODY_BYTES - 100) {
      body.append("{},");
    }
    return body.append("{}]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The answer's status, or -1 when there was none (the receiver died, or dropped the connection). */
  private int post(byte[] body, String signature) throws InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(generic).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json").header("X-Signature", signature)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  private int port() throws Exception {
    Matcher m = LISTENING.matcher(Files.isRegularFile(log) ? Files.readString(log) : "");
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }
}
