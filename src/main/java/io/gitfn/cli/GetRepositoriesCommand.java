package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gitfn get repositories [NAME]}. */
@Command(name = "repositories", aliases = {"repository", "fnrepo"}, mixinStandardHelpOptions = true,
    description = "Show FunctionRepositories: URL, applied revision, readiness and why.")
final class GetRepositoriesCommand extends ClusterCommand {

  @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "One FunctionRepository; default: all.")
  String name;

  @Option(names = {"-A", "--all-namespaces"}, description = "List them in every namespace.")
  boolean allNamespaces;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "wide (adds REF, PATH, LAST-WEBHOOK), yaml or json. Default: a table.")
  Output.Format format;

  @Override
  int run(KubernetesClient client, String namespace) {
    List<FunctionRepository> repositories = name != null
        ? List.of(ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name))
        : ClusterObjects.all(client, FunctionRepository.class, namespace, allNamespaces);
    Output output = new Output(format, out());
    if (repositories.isEmpty()) {
      note(ClusterObjects.nothingFound(namespace, allNamespaces));
      return 0;
    }
    if (!output.isTable()) {
      output.objects(repositories, name == null);
      return 0;
    }
    Instant now = Clock.systemUTC().instant();
    boolean wide = output.isWide();
    output.table(RepositoryRow.header(allNamespaces, wide),
        repositories.stream().map(r -> RepositoryRow.of(r, now).cells(allNamespaces, wide)).toList());
    return 0;
  }
}
