package io.gitfn.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code gitfn_reconcile_seconds{kind, result}}: how long each reconcile pass takes and whether it threw.
 *
 * <p>The SDK's own Micrometer module ({@code io.javaoperatorsdk:micrometer-support}) is not in the package index
 * this project builds from, and its meters are named for the SDK, not gitfn; this implements the SDK's {@link
 * Metrics} hook instead, which times exactly the reconciler's call. A pass that ends in a condition (an invalid
 * spec, waiting for a build) is a success here: only exceptions, which the SDK retries, count as errors.
 * Cleanups on deletion are not timed.
 */
public final class ReconcileMetrics implements Metrics {

  public static final String NAME = "gitfn.reconcile";

  private final MeterRegistry registry;
  private final Map<String, String> kinds = new ConcurrentHashMap<>(); // controller name -> kind

  ReconcileMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    kinds.put(controller.getConfiguration().getName(), controller.getAssociatedGroupVersionKind().getKind());
  }

  /** The kind a registered controller reconciles, such as {@code Function}. */
  String kind(String controllerName) {
    return kinds.getOrDefault(controllerName, controllerName);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    if (!"reconcile".equals(execution.name())) {
      return execution.execute();
    }
    String kind = kind(execution.controllerName());
    Timer.Sample sample = Timer.start(registry);
    String result = "error";
    try {
      T value = execution.execute();
      result = "success";
      return value;
    } finally {
      sample.stop(timer(kind, result));
    }
  }

  private Timer timer(String kind, String result) {
    return Timer.builder(NAME).description("Reconcile passes, by kind and by whether they threw")
        .tag("kind", kind).tag("result", result).register(registry);
  }
}
