package io.gitfn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.SyncRecord;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gitfn history repository NAME}: status.history, newest first. */
@Command(name = "repository", aliases = {"repositories", "fnrepo"}, mixinStandardHelpOptions = true,
    description = "Show the last syncs of a FunctionRepository: revision, time, outcome and Functions changed.")
final class HistoryRepositoryCommand extends ClusterCommand {

  @Parameters(index = "0", paramLabel = "NAME", description = "The FunctionRepository.")
  String name;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "yaml or json. Default: a table.")
  Output.Format format;

  @Override
  int run(KubernetesClient client, String namespace) {
    FunctionRepository repository =
        ClusterObjects.one(client, FunctionRepository.class, "functionrepository", namespace, name);
    List<SyncRecord> history = repository.getStatus() == null || repository.getStatus().getHistory() == null
        ? List.of() : newestFirst(repository.getStatus().getHistory());
    Output output = new Output(format, out());
    if (!output.isTable()) {
      output.value(history);
      return 0;
    }
    if (history.isEmpty()) {
      note("No history yet for FunctionRepository " + namespace + "/" + name + ".");
      return 0;
    }
    output.table(HistoryRow.HEADER, history.stream().map(r -> HistoryRow.of(r).cells()).toList());
    return 0;
  }

  // The controller writes it newest first; sorting again keeps the table right if that ever changes.
  static List<SyncRecord> newestFirst(List<SyncRecord> history) {
    return history.stream()
        .sorted(Comparator.comparing(HistoryRepositoryCommand::time).reversed())
        .toList();
  }

  private static Instant time(SyncRecord record) {
    try {
      return record.getTime() == null ? Instant.MIN : Instant.parse(record.getTime());
    } catch (DateTimeParseException e) {
      return Instant.MIN;
    }
  }
}
