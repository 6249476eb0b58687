package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code gitfn resume repository NAME [--wait]}: {@code spec.suspend: false} and a reconcile request, in one write. */
@Command(name = "repository", aliases = {"repositories", "fnrepo"}, mixinStandardHelpOptions = true,
    description = "Set spec.suspend of a FunctionRepository to false and ask the controller to reconcile it now.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:resumed (with --wait: the revision runs; with --wait=applied: it was applied)", "1:not found, failed, or timed out"})
final class ResumeRepositoryCommand extends ClusterCommand {

  @Parameters(index = "0", paramLabel = "NAME", description = "The FunctionRepository.")
  String name;

  @Mixin WaitOptions waiting;

  @Override
  int run(KubernetesClient client, String namespace) throws InterruptedException {
    Duration timeout = waiting.timeout();
    ReconcileRequest request = new ReconcileRequest(client, namespace, name, out(), Clock.systemUTC());
    request.current();
    out().println("► resuming FunctionRepository " + namespace + "/" + name);
    out().flush();
    String requestedAt = request.resume();
    return waiting.until().isPresent()
        ? request.await(requestedAt, waiting.until().get(), timeout, waiting.timeout) : 0;
  }
}
