package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Labels;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import java.util.List;

/**
 * A Function's page: its state, its conditions, the versions it ran and the Events about it, newest first.
 *
 * @param repository the {@code gitfn.io/repository} label: {@code namespace.name} of the repository that applied
 *     it, or null for one made by hand
 * @param rollback the automatic rollback that holds it on an earlier version, or null
 */
public record FunctionPage(FunctionSummary function, String repository, List<Condition> conditions,
    List<FunctionHistoryEntry> history, AutoRollback rollback, List<EventLine> events) {

  /** One Event about the Function, as {@code kubectl describe} shows it. */
  public record EventLine(String type, String reason, String message, String time, int count) {

    public boolean warning() {
      return "Warning".equals(type);
    }
  }

  static FunctionPage of(Function fn, List<EventLine> events) {
    FunctionStatus status = fn.getStatus() == null ? new FunctionStatus() : fn.getStatus();
    return new FunctionPage(
        FunctionSummary.of(fn),
        fn.getMetadata().getLabels() == null ? null : fn.getMetadata().getLabels().get(Labels.REPOSITORY),
        status.getConditions() == null ? List.of() : List.copyOf(status.getConditions()),
        status.getHistory() == null ? List.of() : List.copyOf(status.getHistory()),
        status.getRollback(),
        events);
  }

  /** The repository's page, from the label: {@code /repositories/<namespace>/<name>}, or null. */
  public String repositoryPath() {
    return Labels.repositoryOf(repository).map(r -> "/repositories/" + r.namespace() + "/" + r.name()).orElse(null);
  }

  /** A digest of what the page shows, as {@link Overview#version()}. */
  public String version() {
    return Versions.of(this);
  }
}
