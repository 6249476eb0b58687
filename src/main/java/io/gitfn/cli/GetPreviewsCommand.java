package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gitfn get previews [REPOSITORY]}: the previews of pull requests, from the repositories' status. */
@Command(name = "previews", aliases = {"preview"}, mixinStandardHelpOptions = true,
    description = "Show the previews of pull requests (spec.previews): phase, head, URL, age.")
final class GetPreviewsCommand extends ClusterCommand {

  @Parameters(index = "0", arity = "0..1", paramLabel = "REPOSITORY",
      description = "The previews of one FunctionRepository; default: of all.")
  String name;

  @Option(names = {"-A", "--all-namespaces"}, description = "List them in every namespace.")
  boolean allNamespaces;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "wide (adds PREVIEW-NAMESPACE, MESSAGE). Default: a table.")
  Output.Format format;

  @Override
  int run(KubernetesClient client, String namespace) {
    Output output = new Output(format, out());
    if (!output.isTable()) {
      throw new CommandException("previews are shown as a table (-o wide adds columns); `gitfn get repositories "
          + (name == null ? "" : name + " ") + "-o " + format + "` shows status.previews whole");
    }
    List<FunctionRepository> repositories = name != null
        ? List.of(ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name))
        : ClusterObjects.all(client, FunctionRepository.class, namespace, allNamespaces);
    Instant now = Clock.systemUTC().instant();
    List<PreviewRow> rows = repositories.stream().flatMap(r -> PreviewRow.of(r, now).stream()).toList();
    if (rows.isEmpty()) {
      note("No previews found" + (name == null ? "" : " of " + name) + ".");
      return 0;
    }
    boolean wide = output.isWide();
    output.table(PreviewRow.header(allNamespaces, wide),
        rows.stream().map(row -> row.cells(allNamespaces, wide)).toList());
    return 0;
  }
}
