package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.repository.FunctionRepository;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Asks the controller to check a FunctionRepository's Git at once, as {@code flux reconcile} does, through the
 * {@code gitfn.io/requested-at} annotation, and optionally waits for the outcome.
 */
final class ReconcileRequest {

  private static final Duration POLL = Duration.ofMillis(500);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final PrintWriter out;
  private final Clock clock;

  ReconcileRequest(KubernetesClient client, String namespace, String name, PrintWriter out, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.out = out;
    this.clock = clock;
  }

  FunctionRepository current() {
    return ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name);
  }

  /** Merge-patches {@code spec} (may be empty) and the annotation in one write; returns the value it set. */
  String send(Map<String, Object> spec) {
    current();
    String requestedAt = clock.instant().toString();
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("metadata", Map.of("annotations", Map.of(Annotations.REQUESTED_AT, requestedAt)));
    if (!spec.isEmpty()) {
      patch.put("spec", spec);
    }
    client.resources(FunctionRepository.class).inNamespace(namespace).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(patch));
    return requestedAt;
  }

  /** Prints progress until the request was acted on; returns the exit code. */
  int await(String requestedAt, Duration timeout, String timeoutText) throws InterruptedException {
    say("◎ waiting for reconciliation");
    Instant deadline = clock.instant().plus(timeout);
    ReconcileProgress progress = ReconcileProgress.of(current(), requestedAt);
    while (progress.state() == ReconcileProgress.State.WAITING && clock.instant().isBefore(deadline)) {
      Thread.sleep(POLL.toMillis());
      progress = ReconcileProgress.of(current(), requestedAt);
    }
    if (progress.state() == ReconcileProgress.State.APPLIED) {
      say("✔ applied revision " + progress.message());
      return 0;
    }
    if (progress.state() == ReconcileProgress.State.FAILED) {
      say("✗ " + progress.message());
      return ClusterCommand.FAILED;
    }
    say("✗ timed out after " + timeoutText + " waiting for FunctionRepository " + namespace + "/" + name
        + " to be reconciled; is gitfn controller running?");
    return ClusterCommand.FAILED;
  }

  private void say(String line) {
    out.println(line);
    out.flush();
  }
}
