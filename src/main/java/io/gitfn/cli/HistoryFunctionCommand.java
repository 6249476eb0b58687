package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gitfn history function NAME}: the revisions a Function ran and the image each one used. */
@Command(name = "function", aliases = {"functions", "fn"}, mixinStandardHelpOptions = true,
    description = "Show the last builds and rollouts of a Function: revision, time, outcome, content key and image.")
final class HistoryFunctionCommand extends ClusterCommand {

  static final List<String> HEADER = List.of("REVISION", "TIME", "OUTCOME", "KEY", "IMAGE");

  @Parameters(index = "0", paramLabel = "NAME", description = "The Function.")
  String name;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "yaml or json. Default: a table.")
  Output.Format format;

  @Override
  int run(KubernetesClient client, String namespace) {
    Function fn = ClusterObjects.one(client, Function.class, "function", namespace, name);
    List<FunctionHistoryEntry> history = fn.getStatus() == null || fn.getStatus().getHistory() == null
        ? List.of() : fn.getStatus().getHistory();
    Output output = new Output(format, out());
    if (!output.isTable()) {
      output.value(history);
      return 0;
    }
    if (history.isEmpty()) {
      note("No history yet for Function " + namespace + "/" + name + ".");
      return 0;
    }
    output.table(HEADER, history.stream().map(e -> List.of(Table.orNone(e.getRevision()), Table.orNone(e.getTime()),
        Table.orNone(e.getOutcome()), Table.orNone(e.getContentKey()), Table.orNone(e.getImage()))).toList());
    return 0;
  }
}
