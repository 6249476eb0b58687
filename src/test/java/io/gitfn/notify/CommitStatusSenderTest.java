package io.gitfn.notify;

import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.notify.SendResult.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sender against a fake forge on 127.0.0.1: what it sends, and what it makes of every kind of answer. */
@Timeout(30)
class CommitStatusSenderTest {

  private static final String STATUSES_PATH = "/api/v3/repos/shop/functions/statuses/" + SHA;

  private FakeForge forge;
  private final CommitStatusSender sender = new CommitStatusSender(Duration.ofSeconds(2), Duration.ofSeconds(2));
  private final CommitStatusSender impatient =
      new CommitStatusSender(Duration.ofMillis(300), Duration.ofMillis(300));

  @BeforeEach
  void startForge() throws IOException {
    forge = FakeForge.start();
  }

  @AfterEach
  void stopForge() {
    forge.close();
  }

  /** A GitHub Enterprise status request, pointed at the fake forge by the API override. */
  private ForgeRequest request() {
    return Samples.repository("https://ghe.example/shop/functions.git", Forge.GITHUB, forge.base() + "/api/v3")
        .request(Samples.success(), TOKEN);
  }

  @Test
  void aStatusTheForgeTakesIsSentAsBuilt() {
    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.SENT);
    assertThat(result.statusCode()).isEqualTo(201);
    assertThat(forge.seen()).singleElement().satisfies(seen -> {
      assertThat(seen.method()).isEqualTo("POST");
      assertThat(seen.rawPath()).isEqualTo(STATUSES_PATH);
      assertThat(seen.headers().getFirst("Authorization")).isEqualTo("Bearer " + TOKEN);
      assertThat(seen.headers().getFirst("Accept")).isEqualTo("application/vnd.github+json");
      assertThat(seen.headers().getFirst("X-GitHub-Api-Version")).isEqualTo("2022-11-28");
      assertThat(seen.headers().getFirst("Content-Type")).isEqualTo("application/json");
      assertThat(seen.headers().getFirst("User-Agent")).isEqualTo("gitfn");
      JsonNode body = json(seen.body());
      assertThat(body.path("state").asText()).isEqualTo("success");
      assertThat(body.path("context").asText()).isEqualTo(Samples.CONTEXT);
    });
  }

  @Test
  void aRefusedTokenIsRejectedWithACleanExcerptOfTheAnswer() {
    forge.answering(exchange -> FakeForge.reply(exchange, 401,
        "{\"message\":\"Bad credentials\",\n\t\"documentation_url\":\"https://docs.github.com/rest\"}\u001b[31m"));

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.statusCode()).isEqualTo(401);
    assertThat(result.detail())
        .isEqualTo("{\"message\":\"Bad credentials\", \"documentation_url\":\"https://docs.github.com/rest\"} [31m");
  }

  @Test
  void anAnswerThatEchoesTheTokenShowsItMasked() {
    forge.answering(exchange -> FakeForge.reply(exchange, 403,
        "token " + exchange.getRequestHeaders().getFirst("Authorization") + " may not write statuses"));

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.detail()).doesNotContain(TOKEN).contains("***");
    assertThat(result.toString()).doesNotContain(TOKEN);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 422})
  void anAnswerOnlyAPersonCanFixIsRejected(int status) {
    forge.answering(exchange -> FakeForge.reply(exchange, status, "{\"message\":\"no\"}"));

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.statusCode()).isEqualTo(status);
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 502, 503, 504})
  void aForgeThatIsDownIsRetried(int status) {
    forge.answering(exchange -> FakeForge.reply(exchange, status, "<html>unavailable</html>"));

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
    assertThat(result.statusCode()).isEqualTo(status);
    assertThat(result.detail()).isEqualTo("<html>unavailable</html>");
  }

  @Test
  void aRateLimitedRequestIsRetriedAfterTheTimeTheForgeNames() {
    forge.answering(exchange -> {
      exchange.getResponseHeaders().add("Retry-After", "30");
      FakeForge.reply(exchange, 429, "{\"message\":\"slow down\"}");
    });

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
    assertThat(result.retryAfter()).contains(Duration.ofSeconds(30));
  }

  @Test
  void gitLabsAnswerToAStateItShowsAlreadyCountsAsSent() {
    forge.answering(exchange -> FakeForge.reply(exchange, 400, "{\"message\":\"Cannot transition status via "
        + ":enqueue from :pending (Reason(s): Status cannot transition via \\\"enqueue\\\")\"}"));

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.SENT);
    assertThat(result.detail()).startsWith("GitLab shows that state already");
  }

  @Test
  void aRedirectIsNotFollowed() {
    forge.answering(exchange -> {
      exchange.getResponseHeaders().add("Location", forge.base() + "/elsewhere");
      FakeForge.reply(exchange, 302, "");
    });

    SendResult result = sender.send(request());

    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.statusCode()).isEqualTo(302);
    assertThat(result.detail()).contains("redirected to " + forge.base() + "/elsewhere");
    assertThat(forge.seen()).extracting(FakeForge.Seen::rawPath).containsExactly(STATUSES_PATH);
  }

  @Test
  void anEndlessAnswerIsCutAt64KibAndTheCallReturns() {
    AtomicLong written = new AtomicLong();
    CountDownLatch dropped = new CountDownLatch(1);
    forge.answering(exchange -> {
      byte[] chunk = new byte[8192];
      Arrays.fill(chunk, (byte) 'A');
      exchange.sendResponseHeaders(401, 0); // chunked, without end
      try (OutputStream out = exchange.getResponseBody()) {
        while (true) {
          out.write(chunk);
          written.addAndGet(chunk.length);
        }
      } catch (IOException e) {
        dropped.countDown(); // the client closed the connection
      }
    });

    long start = System.nanoTime();
    SendResult result = sender.send(request());

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.detail()).hasSize(Excerpt.LIMIT).startsWith("AAAA").endsWith("...");
    // The sender stopped reading and hung up: the server can write no more, so the answer did end.
    await().atMost(Duration.ofSeconds(5)).until(() -> dropped.getCount() == 0);
    assertThat(written.get()).isGreaterThanOrEqualTo(CommitStatusSender.ANSWER_LIMIT);
  }

  @Test
  void aServerThatNeverAnswersIsRetriedWithinTheRequestTimeout() throws IOException {
    // A listening socket that never accepts: the kernel completes the connection, nobody ever answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      ForgeRequest request = Samples.repository("git@git.example:shop/functions.git", Forge.GITEA,
          "http://127.0.0.1:" + silent.getLocalPort() + "/api/v1").request(Samples.success(), TOKEN);

      long start = System.nanoTime();
      SendResult result = impatient.send(request);

      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
      assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
      assertThat(result.answered()).isFalse();
      assertThat(result.detail()).isEqualTo("127.0.0.1:" + silent.getLocalPort() + " did not answer within 300ms");
    }
  }

  @Test
  void aServerThatStallsMidAnswerIsRetriedWithinTheTimeouts() {
    forge.answering(exchange -> {
      exchange.sendResponseHeaders(201, 0);
      OutputStream out = exchange.getResponseBody();
      out.write("{\"state\":".getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        Thread.sleep(TimeUnit.MINUTES.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });

    long start = System.nanoTime();
    SendResult result = impatient.send(request());

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
    assertThat(result.detail()).endsWith("did not finish answering within 600ms");
  }

  @Test
  void aForgeNobodyListensOnIsRetriedNotThrown() throws IOException {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    ForgeRequest request = Samples.repository("https://github.com/shop/functions", Forge.GITHUB,
        "http://127.0.0.1:" + port + "/api/v3").request(Samples.success(), TOKEN);

    SendResult result = sender.send(request);

    assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
    assertThat(result.detail()).startsWith("could not connect to 127.0.0.1:" + port);
  }

  @Test
  void anInterruptedSendIsRetriedAndTheInterruptKept() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      ForgeRequest request = Samples.repository("https://github.com/shop/functions", Forge.GITHUB,
          "http://127.0.0.1:" + silent.getLocalPort() + "/api/v3").request(Samples.success(), TOKEN);

      Thread.currentThread().interrupt();
      SendResult result = sender.send(request);

      assertThat(Thread.interrupted()).isTrue();
      assertThat(result.outcome()).isEqualTo(Outcome.RETRY);
      assertThat(result.detail()).contains("was interrupted");
    }
  }

  @Test
  void aSignedNotificationReachesItsReceiverWithItsSignature() {
    GenericNotification notification = new GenericNotification(GenericNotification.Kind.FUNCTION, "shop", "hello",
        "main@sha1:" + SHA, Samples.success(), "Ready", Instant.EPOCH, null);
    byte[] secret = "s".getBytes(StandardCharsets.UTF_8);

    SendResult result = sender.send(notification.request(forge.base().resolve("/hooks/gitfn"), secret));

    assertThat(result.outcome()).isEqualTo(Outcome.SENT);
    assertThat(forge.seen()).singleElement().satisfies(seen -> {
      assertThat(seen.rawPath()).isEqualTo("/hooks/gitfn");
      assertThat(seen.headers().getFirst("X-Gitfn-Signature"))
          .isEqualTo(GenericNotification.signature(seen.body(), secret));
    });
  }
}
