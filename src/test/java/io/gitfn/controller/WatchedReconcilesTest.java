package io.gitfn.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.health.Watchdog;
import io.javaoperatorsdk.operator.api.monitoring.Metrics.ControllerExecution;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WatchedReconcilesTest {

  private final Watchdog watchdog = new Watchdog(Clock.systemUTC()).checkEvery(Duration.ofMillis(10));
  private final WatchedReconciles reconciles =
      new WatchedReconciles(new ReconcileMetrics(new SimpleMeterRegistry()), watchdog, Duration.ofMillis(100));

  @AfterEach
  void stop() {
    watchdog.close();
  }

  @Test
  void aPassPastItsBudgetIsStoppedAndSaysSoAndItsThreadGoesOnWithoutTheInterrupt() {
    long started = System.nanoTime();

    assertThatThrownBy(() -> reconciles.timeControllerExecution(pass(() -> {
      Thread.sleep(30_000); // a call that waits on a server which never answers
      return "done";
    })))
        .isInstanceOf(WatchedReconciles.ReconcileBudgetException.class)
        .hasMessage("the reconcile of FunctionRepository shop/infra ran past its budget of 0 s and was stopped; it is "
            + "retried with backoff")
        .hasCauseInstanceOf(InterruptedException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(watchdog.stuck()).isEmpty();
  }

  @Test
  void aPassWithinItsBudgetReturnsWhatItReturned() throws Exception {
    assertThat(reconciles.timeControllerExecution(pass(() -> "done"))).isEqualTo("done");
  }

  @Test
  void aPassThatFailsWithinItsBudgetFailsWithItsOwnException() {
    assertThatThrownBy(() -> reconciles.timeControllerExecution(pass(() -> {
      throw new IllegalStateException("the API server said no");
    }))).isInstanceOf(IllegalStateException.class).hasMessage("the API server said no");
  }

  private static ControllerExecution<String> pass(Callable<String> body) {
    return new ControllerExecution<>() {
      @Override
      public String name() {
        return "reconcile";
      }

      @Override
      public String controllerName() {
        return "FunctionRepository";
      }

      @Override
      public String successTypeName(String result) {
        return "success";
      }

      @Override
      public ResourceID resourceID() {
        return new ResourceID("infra", "shop");
      }

      @Override
      public Map<String, Object> metadata() {
        return Map.of();
      }

      @Override
      public String execute() throws Exception {
        return body.call();
      }
    };
  }
}
