package io.gitfn.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gitfn.health.Watchdog;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;

/**
 * Puts every reconcile pass under the {@link Watchdog} with a budget, and times it with {@link ReconcileMetrics}.
 * The SDK's metrics hook is the one place that runs around each pass on its own thread.
 *
 * <p>A pass past its budget is interrupted; whatever it then throws is replaced by a {@link
 * ReconcileBudgetException} that says so, which the SDK logs and retries with backoff. What the pass wrote before
 * stays: every write is a whole object, server-side applied, so a later pass finishes the job.
 */
final class WatchedReconciles implements Metrics {

  /**
   * A pass is a handful of API calls for a Function and about one per Function for a repository. The first sync of
   * 1,000 Functions takes 17 s on the test bed (docs/benchmarks.md, {@code sync}), so one of 5,000, the most a
   * revision may declare, takes about a minute and a half; five minutes is reached only by something stuck.
   */
  static final Duration BUDGET = Duration.ofMinutes(5);

  private final ReconcileMetrics metrics;
  private final Watchdog watchdog;
  private final Duration budget;

  WatchedReconciles(ReconcileMetrics metrics, Watchdog watchdog, Duration budget) {
    this.metrics = metrics;
    this.watchdog = watchdog;
    this.budget = budget;
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    metrics.controllerRegistered(controller);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    if (!"reconcile".equals(execution.name())) {
      return metrics.timeControllerExecution(execution);
    }
    String what = "the reconcile of " + metrics.kind(execution.controllerName())
        + " " + name(execution.resourceID());
    Watchdog.Watch watch = watchdog.watch(what, budget, true);
    try {
      return metrics.timeControllerExecution(execution);
    } catch (Exception e) {
      if (watch.overran()) {
        throw new ReconcileBudgetException(what + " ran past its budget of " + budget.toSeconds()
            + " s and was stopped; it is retried with backoff", e);
      }
      throw e;
    } finally {
      watch.close();
    }
  }

  private static String name(ResourceID id) {
    return id.getNamespace().map(ns -> ns + "/").orElse("") + id.getName();
  }

  /** A pass the watchdog stopped because it ran past its budget. */
  static final class ReconcileBudgetException extends RuntimeException {
    ReconcileBudgetException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
