package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
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
    FunctionStatus status = fn.getStatus();
    FunctionHistoryEntry serving = history.stream().filter(e -> e.getImage() != null
        && e.getImage().equals(status.getImage())).findFirst().orElse(null);
    AutoRollback rollback = status.getRollback();
    FunctionHistoryEntry failed = rollback == null ? null : history.stream()
        .filter(e -> rollback.getFailedContentKey().equals(e.getContentKey())).findFirst().orElse(null);
    output.table(HEADER, history.stream().map(e -> List.of(Table.orNone(e.getRevision()), Table.orNone(e.getTime()),
        outcome(e, e == serving, e == failed ? rollback : null), Table.orNone(e.getContentKey()),
        Table.orNone(e.getImage()))).toList());
    return 0;
  }

  /** The entry's outcome, and whether it is what runs, or the version gitfn rolled back from. */
  private static String outcome(FunctionHistoryEntry entry, boolean serving, AutoRollback rollback) {
    String outcome = Table.orNone(entry.getOutcome());
    if (rollback != null) {
      outcome += ", rolled back (" + rollback.getReason() + ")";
    }
    return serving ? outcome + ", serving" : outcome;
  }
}
