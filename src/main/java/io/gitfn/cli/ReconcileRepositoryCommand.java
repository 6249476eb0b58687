package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code gitfn reconcile repository NAME [--wait] [--timeout 2m]}. */
@Command(name = "repository", aliases = {"repositories", "fnrepo"}, mixinStandardHelpOptions = true,
    description = "Annotate a FunctionRepository with gitfn.io/requested-at so that the controller checks Git now.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:requested (with --wait: the revision runs; with --wait=applied: it was applied)",
        "1:not found, suspended, failed, or timed out"})
final class ReconcileRepositoryCommand extends ClusterCommand {

  @Parameters(index = "0", paramLabel = "NAME", description = "The FunctionRepository.")
  String name;

  @Mixin WaitOptions waiting;

  @Override
  int run(KubernetesClient client, String namespace) throws InterruptedException {
    Duration timeout = waiting.timeout();
    ReconcileRequest request = new ReconcileRequest(client, namespace, name, out(), Clock.systemUTC());
    if (Boolean.TRUE.equals(request.current().getSpec().getSuspend())) {
      throw new CommandException("functionrepository \"" + name + "\" in namespace \"" + namespace
          + "\" is suspended; run gitfn resume repository " + name);
    }
    out().println("► annotating FunctionRepository " + namespace + "/" + name);
    out().flush();
    String requestedAt = request.send();
    return waiting.until().isPresent()
        ? request.await(requestedAt, waiting.until().get(), timeout, waiting.timeout) : 0;
  }
}
