package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Commit statuses go out off the reconcile threads, newest first, again after a failure that may pass, and never
 * twice when the forge has one already.
 */
class CommitStatusReporterTest {

  private static final ForgeRepository GITHUB = Samples.repository("https://github.com/acme/infra.git");
  private final List<String> changed = new CopyOnWriteArrayList<>();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void aStatusIsSentOnceAndTheSameAgainSendsNothing() {
    Forge forge = new Forge(r -> sent());
    try (CommitStatusReporter reporter = reporter(forge)) {
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "main@sha1:" + Samples.SHA);
      await().atMost(Duration.ofSeconds(5)).until(() -> result(reporter) == CommitStatusReporter.Result.SENT);
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "main@sha1:" + Samples.SHA);

      assertThat(forge.requests).hasSize(1);
      assertThat(changed).contains("shop/infra");
      assertThat(meters.counter("gitfn.commit.statuses", "forge", "github", "result", "sent").count()).isEqualTo(1);
    }
  }

  @Test
  void aFailureThatMayPassIsSentAgainAndARefusalIsNot() {
    AtomicInteger calls = new AtomicInteger();
    Forge flaky = new Forge(r -> calls.incrementAndGet() == 1
        ? new SendResult(SendResult.Outcome.RETRY, 503, "down", Optional.of(Duration.ofMillis(50))) : sent());
    try (CommitStatusReporter reporter = reporter(flaky)) {
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "r");
      await().atMost(Duration.ofSeconds(5)).until(() -> result(reporter) == CommitStatusReporter.Result.SENT);
      assertThat(flaky.requests).hasSize(2);
    }
    Forge refusing = new Forge(r -> new SendResult(SendResult.Outcome.REJECTED, 401, "Bad credentials",
        Optional.empty()));
    try (CommitStatusReporter reporter = reporter(refusing)) {
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "r");
      await().atMost(Duration.ofSeconds(5)).until(() -> result(reporter) == CommitStatusReporter.Result.REJECTED);
      assertThat(reporter.outcome("shop/infra").orElseThrow().error()).isEqualTo("REJECTED 401: Bad credentials");
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "r");
      assertThat(refusing.requests).as("the same status is not sent again after a refusal").hasSize(1);
    }
  }

  @Test
  void aStatusReplacedWhileOneIsInFlightGoesOutNextAndTheOneBetweenNever() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Forge slow = new Forge(r -> {
      hold(release);
      return sent();
    });
    try (CommitStatusReporter reporter = reporter(slow)) {
      reporter.report("shop/infra", GITHUB, "t", Samples.status(CommitState.PENDING), "r");
      await().atMost(Duration.ofSeconds(5)).until(() -> slow.requests.size() == 1);
      reporter.report("shop/infra", GITHUB, "t", Samples.status(CommitState.FAILURE), "r");
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "r");
      release.countDown();

      await().atMost(Duration.ofSeconds(5)).until(() -> slow.requests.size() == 2
          && result(reporter) == CommitStatusReporter.Result.SENT);
      assertThat(slow.states).containsExactly("pending", "success");
    }
  }

  @Test
  void oneSlowHostHoldsAtMostTwoThreadsSoAnotherForgeIsServedMeanwhile() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ForgeRepository tarpit = Samples.repository("https://git.tarpit.example/a/b.git", io.gitfn.notify.Forge.GITEA);
    Forge forge = new Forge(r -> {
      if (r.uri().getHost().equals("git.tarpit.example")) {
        hold(release);
      }
      return sent();
    });
    try (CommitStatusReporter reporter = reporter(forge)) {
      for (int i = 0; i < 6; i++) {
        reporter.report("tenant/" + i, tarpit, "t", Samples.success(), "r");
      }
      reporter.report("shop/infra", GITHUB, "t", Samples.success(), "r");

      await().atMost(Duration.ofSeconds(5)).until(() -> result(reporter) == CommitStatusReporter.Result.SENT);
      assertThat(forge.requests.stream().filter(r -> r.uri().getHost().equals("git.tarpit.example")))
          .as("requests in flight to the slow host").hasSize(CommitStatusReporter.PER_HOST);
      release.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> forge.requests.size() == 7);
    }
  }

  @Test
  void backoffDoublesFromTwoSecondsUpToFiveMinutes() {
    assertThat(CommitStatusReporter.backoff(1)).isEqualTo(Duration.ofSeconds(2));
    assertThat(CommitStatusReporter.backoff(3)).isEqualTo(Duration.ofSeconds(8));
    assertThat(CommitStatusReporter.backoff(30)).isEqualTo(Duration.ofMinutes(5));
  }

  private CommitStatusReporter reporter(Forge forge) {
    return new CommitStatusReporter(forge, Clock.systemUTC(), changed::add, meters);
  }

  private static CommitStatusReporter.Result result(CommitStatusReporter reporter) {
    return reporter.outcome("shop/infra").map(CommitStatusReporter.Outcome::result).orElse(null);
  }

  private static SendResult sent() {
    return new SendResult(SendResult.Outcome.SENT, 201, "", Optional.empty());
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A forge that records each request and the state it carried, and answers as told. */
  private static final class Forge implements Function<ForgeRequest, SendResult> {
    final ConcurrentLinkedQueue<ForgeRequest> requests = new ConcurrentLinkedQueue<>();
    final List<String> states = new CopyOnWriteArrayList<>();
    private final Function<ForgeRequest, SendResult> answer;

    Forge(Function<ForgeRequest, SendResult> answer) {
      this.answer = answer;
    }

    @Override
    public SendResult apply(ForgeRequest request) {
      requests.add(request);
      states.add(Samples.json(request.body()).get("state").asText());
      return answer.apply(request);
    }
  }
}
