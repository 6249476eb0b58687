package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gitfn get functions [NAME]}. */
@Command(name = "functions", aliases = {"function", "fn"}, mixinStandardHelpOptions = true,
    description = "Show Functions: runtime, their three conditions and the FunctionRepository that applied them.")
final class GetFunctionsCommand extends ClusterCommand {

  @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "One Function; default: all.")
  String name;

  @Option(names = {"-A", "--all-namespaces"}, description = "List them in every namespace.")
  boolean allNamespaces;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "wide (the same columns), yaml or json. Default: a table.")
  Output.Format format;

  @Override
  int run(KubernetesClient client, String namespace) {
    List<Function> functions = name != null
        ? List.of(ClusterObjects.one(client, Function.class, "function", namespace, name))
        : ClusterObjects.all(client, Function.class, namespace, allNamespaces);
    Output output = new Output(format, out());
    if (functions.isEmpty()) {
      note(ClusterObjects.nothingFound(namespace, allNamespaces));
      return 0;
    }
    if (!output.isTable()) {
      output.objects(functions, name == null);
      return 0;
    }
    Instant now = Clock.systemUTC().instant();
    output.table(FunctionRow.header(allNamespaces),
        functions.stream().map(f -> FunctionRow.of(f, now).cells(allNamespaces)).toList());
    return 0;
  }
}
