package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.request.ControllerRequests;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import io.gitfn.api.repository.PendingFunction;
import io.gitfn.cli.WaitOptions.Until;
import java.util.HashSet;
import java.util.List;
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
  private final ControllerRequests requests;

  ReconcileRequest(KubernetesClient client, String namespace, String name, PrintWriter out, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.out = out;
    this.clock = clock;
    this.requests = new ControllerRequests(client, clock);
  }

  FunctionRepository current() {
    return ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name);
  }

  /** Asks for a check now; returns the annotation's value, which the status echoes once the request was handled. */
  String send() {
    current();
    return requestedAt(requests.reconcileRepository(namespace, name));
  }

  /** Resumes the repository and asks for a check now, in one write; returns the annotation's value as {@link #send}. */
  String resume() {
    current();
    return requestedAt(requests.resumeRepository(namespace, name));
  }

  private static String requestedAt(FunctionRepository requested) {
    return Annotations.get(requested, Annotations.REQUESTED_AT).orElseThrow();
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
