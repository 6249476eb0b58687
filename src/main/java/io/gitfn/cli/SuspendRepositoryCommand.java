package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.request.ControllerRequests;
import java.time.Clock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code gitfn suspend repository NAME}: merge-patches {@code spec.suspend: true}. */
@Command(name = "repository", aliases = {"repositories", "fnrepo"}, mixinStandardHelpOptions = true,
    description = "Set spec.suspend of a FunctionRepository to true.")
final class SuspendRepositoryCommand extends ClusterCommand {

  @Parameters(index = "0", paramLabel = "NAME", description = "The FunctionRepository.")
  String name;

  @Override
  int run(KubernetesClient client, String namespace) {
    ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name);
    out().println("► suspending FunctionRepository " + namespace + "/" + name);
    new ControllerRequests(client, Clock.systemUTC()).suspendRepository(namespace, name);
    out().println("✔ FunctionRepository suspended");
    out().flush();
    return 0;
  }
}
