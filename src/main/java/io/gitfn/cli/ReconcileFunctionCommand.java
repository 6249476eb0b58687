package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.Function;
import io.gitfn.request.ControllerRequests;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code gitfn reconcile function NAME [--wait] [--timeout 2m]}. */
@Command(name = "function", aliases = {"functions", "fn"}, mixinStandardHelpOptions = true,
    description = {"Annotate a Function with gitfn.io/requested-at so that the controller acts on it now:",
        "it checks a Git source at once, and builds a key whose build failed again."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:requested (with --wait: the Function is ready)",
        "1:not found, failed, or timed out"})
final class ReconcileFunctionCommand extends ClusterCommand {

  private static final Duration POLL = Duration.ofMillis(500);

  @Parameters(index = "0", paramLabel = "NAME", description = "The Function.")
  String name;

  @Mixin WaitOptions waiting;

  @Override
  int run(KubernetesClient client, String namespace) throws InterruptedException {
    Duration timeout = waiting.timeout();
    if (waiting.until().filter(u -> u == WaitOptions.Until.APPLIED).isPresent()) {
      throw new CommandException("--wait=applied is for repositories; a Function's --wait waits until it is ready");
    }
    ClusterObjects.one(client, Function.class, "function", namespace, name);
    Clock clock = Clock.systemUTC();
    say("► annotating Function " + namespace + "/" + name);
    Function requested = new ControllerRequests(client, clock).reconcileFunction(namespace, name);
    Instant requestedAt = Instant.parse(Annotations.get(requested, Annotations.REQUESTED_AT).orElseThrow());
    if (waiting.until().isEmpty()) {
      return 0;
    }
    say("◎ waiting for the Function");
    Instant deadline = requestedAt.plus(timeout);
    while (clock.instant().isBefore(deadline)) {
      Function fn = ClusterObjects.one(client, Function.class, "function", namespace, name);
      List<Condition> conditions = fn.getStatus() == null ? List.of() : fn.getStatus().getConditions();
      Optional<Condition> failing = failedSince(conditions, requestedAt);
      if (failing.isPresent()) {
        say("✗ " + failing.get().getType() + " " + failing.get().getReason() + ": " + failing.get().getMessage());
        return FAILED;
      }
      if (ready(fn, conditions)) {
        say("✔ ready, running " + fn.getStatus().getImage());
        return 0;
      }
      Thread.sleep(POLL.toMillis());
    }
    say("✗ timed out after " + waiting.timeout + " waiting for Function " + namespace + "/" + name
        + "; is gitfn controller running?");
    return FAILED;
  }

  /** A condition that turned False after the request: the request's own outcome, not an earlier one. */
  private static Optional<Condition> failedSince(List<Condition> conditions, Instant requestedAt) {
    return conditions.stream().filter(c -> "False".equals(c.getStatus()))
        .filter(c -> c.getLastTransitionTime() != null && !Instant.parse(c.getLastTransitionTime()).isBefore(
            requestedAt.minusSeconds(1)))
        .findFirst();
  }

  private static boolean ready(Function fn, List<Condition> conditions) {
    return fn.getStatus() != null && fn.getMetadata().getGeneration().equals(fn.getStatus().getObservedGeneration())
        && conditions.size() == 3 && conditions.stream().allMatch(c -> "True".equals(c.getStatus()))
        && Conditions.find(conditions, "BuildReady").isPresent();
  }

  private void say(String line) {
    out().println(line);
    out().flush();
  }
}
