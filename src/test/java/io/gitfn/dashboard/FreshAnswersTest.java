package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gitfn.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FreshAnswersTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
  private final FreshAnswers<String> answers = new FreshAnswers<>(clock, Duration.ofSeconds(5), 2);
  private final AtomicInteger asked = new AtomicInteger();

  private String ask() {
    return "answer " + asked.incrementAndGet();
  }

  @Test
  void aFreshAnswerIsSharedAndAStaleOneAskedAgain() {
    assertThat(answers.get("job-a", this::ask)).isEqualTo("answer 1");
    clock.advance(Duration.ofMillis(4_999));
    assertThat(answers.get("job-a", this::ask)).isEqualTo("answer 1");
    clock.advance(Duration.ofMillis(1));
    assertThat(answers.get("job-a", this::ask)).isEqualTo("answer 2");
  }

  @Test
  void eachKeyHasItsOwnAnswerAndOnlyTheNewestAreKept() {
    answers.get("job-a", this::ask);
    answers.get("job-b", this::ask);
    answers.get("job-c", this::ask); // job-a goes: two are kept
    assertThat(answers.get("job-b", this::ask)).isEqualTo("answer 2");
    assertThat(answers.get("job-a", this::ask)).isEqualTo("answer 4");
  }

  @Test
  void aPageThatComesWhileTheApiServerIsStillAnsweringWaitsForThatAnswer() throws Exception {
    CountDownLatch asking = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> answers.get("job-a", () -> {
      asking.countDown();
      hold(answer);
      return ask();
    }));
    assertThat(asking.await(10, TimeUnit.SECONDS)).isTrue();
    clock.advance(Duration.ofSeconds(30)); // a slow answer: still the one call, however long it takes
    CompletableFuture<String> second = new CompletableFuture<>();
    Thread page = new Thread(() -> second.complete(answers.get("job-a", this::ask)));
    page.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> page.getState() == Thread.State.WAITING);
    answer.countDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(asked).hasValue(1);
  }

  @Test
  void aFailedCallIsNotKept() {
    assertThatThrownBy(() -> answers.get("job-a", () -> {
      throw new IllegalStateException("the API server is gone");
    })).hasMessage("the API server is gone");
    assertThat(answers.get("job-a", this::ask)).isEqualTo("answer 1");
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
