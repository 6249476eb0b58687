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
import io.gitfn.api.repository.PendingFunction;
import io.gitfn.cli.WaitOptions.Until;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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

  /**
   * Prints progress until the request was acted on, and until the revision runs or is applied as {@code until}
   * says, with a line each time a Function the repository waits for moves; returns the exit code.
   */
  int await(String requestedAt, Until until, Duration timeout, String timeoutText) throws InterruptedException {
    say("◎ waiting for reconciliation");
    Instant deadline = clock.instant().plus(timeout);
    Set<String> shown = new HashSet<>();
    FunctionRepository repository = current();
    ReconcileProgress progress = ReconcileProgress.of(repository, requestedAt, until);
    while (progress.state() == ReconcileProgress.State.WAITING && clock.instant().isBefore(deadline)) {
      showPending(repository, requestedAt, shown);
      Thread.sleep(POLL.toMillis());
      repository = current();
      progress = ReconcileProgress.of(repository, requestedAt, until);
    }
    if (progress.state() == ReconcileProgress.State.DONE) {
      say("✔ " + progress.message());
      return 0;
    }
    if (progress.state() == ReconcileProgress.State.FAILED) {
      say("✗ " + progress.message());
      return ClusterCommand.FAILED;
    }
    List<PendingFunction> pending = requestedAt.equals(Optional.ofNullable(repository.getStatus())
        .map(s -> s.getLastHandledRequestedAt()).orElse(null)) ? ReconcileProgress.pending(repository) : List.of();
    say("✗ timed out after " + timeoutText + " waiting for FunctionRepository " + namespace + "/" + name
        + (pending.isEmpty() ? " to be reconciled; is gitfn controller running?"
            : " to run its revision; still waiting for " + pending.stream()
                .map(p -> p.getName() + " (" + p.getReason() + ": " + p.getMessage() + ")")
                .collect(Collectors.joining(", "))));
    return ClusterCommand.FAILED;
  }

  /** One line per Function the repository waits for, each time its reason changes. */
  private void showPending(FunctionRepository repository, String requestedAt, Set<String> shown) {
    if (repository.getStatus() == null || !requestedAt.equals(repository.getStatus().getLastHandledRequestedAt())) {
      return;
    }
    for (PendingFunction p : ReconcileProgress.pending(repository)) {
      if (shown.add(p.getNamespace() + "/" + p.getName() + " " + p.getReason())) {
        say("  " + p.getName() + ": " + p.getReason() + ", " + p.getMessage());
      }
    }
  }

  private void say(String line) {
    out.println(line);
    out.flush();
  }
}
