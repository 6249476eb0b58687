package io.gitfn.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WatchdogTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T00:00:00Z"));
  private final Watchdog watchdog = new Watchdog(clock);

  @Test
  void workWithinItsBudgetIsLeftAlone() {
    try (Watchdog.Watch watch = watchdog.watch("the reconcile of Function shop/orders", Duration.ofMinutes(5), true)) {
      clock.advance(Duration.ofMinutes(5));
      watchdog.check();

      assertThat(watch.overran()).isFalse();
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
      assertThat(watchdog.stuck()).isEmpty();
    }
  }

  @Test
  void workPastItsBudgetIsInterruptedOnceAndTheInterruptDoesNotOutliveIt() {
    try (Watchdog.Watch watch = watchdog.watch("the reconcile of Function shop/orders", Duration.ofMinutes(5), true)) {
      clock.advance(Duration.ofMinutes(5).plusSeconds(1));
      watchdog.check();

      assertThat(watch.overran()).isTrue();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }
    // The pool thread that ran the work goes on to other work without the interrupt.
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void workThatAsksOnlyToBeReportedIsNeverInterrupted() {
    try (Watchdog.Watch watch = watchdog.watch("the Git check of https://git.example/a.git", Duration.ofMinutes(5),
        false)) {
      clock.advance(Duration.ofHours(1));
      watchdog.check();

      assertThat(watch.overran()).isFalse();
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
  }

  @Test
  void workStillRunningAGracePeriodPastItsBudgetIsStuckUntilItEnds() {
    Watchdog.Watch check = watchdog.watch("the Git check of https://git.example/a.git", Duration.ofMinutes(5), false);
    clock.advance(Duration.ofMinutes(5).plus(Watchdog.GRACE));
    assertThat(watchdog.stuck()).as("at the end of the grace period").isEmpty();

    clock.advance(Duration.ofSeconds(1));
    assertThat(watchdog.stuck()).hasValue(
        "stuck: the Git check of https://git.example/a.git has run for 361 s (budget 300 s)");

    check.close();
    assertThat(watchdog.stuck()).isEmpty();
  }

  @Test
  void healthNamesTheLongestStuckWorkFirstAndCountsTheRest() {
    for (int i = 1; i <= 5; i++) {
      watchdog.watch("check " + i, Duration.ofSeconds(10), false);
      clock.advance(Duration.ofSeconds(1));
    }
    clock.advance(Duration.ofMinutes(2));

    assertThat(watchdog.stuck()).hasValueSatisfying(message -> assertThat(message)
        .startsWith("stuck: check 1 has run for 125 s (budget 10 s); check 2 has run for 124 s")
        .endsWith("; and 2 more"));
  }

  @Test
  void theWatchdogChecksOnItsOwnOnceStarted() throws Exception {
    try (Watchdog running = new Watchdog(Clock.systemUTC()).checkEvery(Duration.ofMillis(10));
        Watchdog.Watch watch = running.watch("a pass that sleeps", Duration.ofMillis(50), true)) {
      long started = System.nanoTime();
      boolean woken = false;
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException e) {
        woken = true;
      }

      assertThat(woken).isTrue();
      assertThat(watch.overran()).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
  }
}
