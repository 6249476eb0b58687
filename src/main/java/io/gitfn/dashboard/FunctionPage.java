package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.Labels;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.rollback.KnownRevisions;
import java.util.List;
import java.util.Optional;

/**
 * A Function's page: its state, its conditions, its newest build and its rollout, the versions it ran (in a table
 * and on a timeline) and the Events about it, newest first.
 *
 * @param repository the {@code gitfn.io/repository} label: {@code namespace.name} of the repository that applied
 *     it, or null for one made by hand
 * @param build its newest build Job, with the end of its log, or null while it has none
 * @param rollout its Deployment's rollout, or null before it has one
 * @param rollback the automatic rollback that holds it on an earlier version, or null
 * @param pinnable the revisions of its history that {@code gitfn rollback --pin} could pin it to, newest first
 */
public record FunctionPage(FunctionSummary function, String repository, List<Condition> conditions,
    BuildJob build, DeploymentRollout rollout, List<FunctionHistoryEntry> history, Timeline timeline,
    AutoRollback rollback, List<String> pinnable, List<EventLine> events) {

  /** One Event about the Function, as {@code kubectl describe} shows it. */
  public record EventLine(String type, String reason, String message, String time, int count) {

    public boolean warning() {
      return "Warning".equals(type);
    }
  }

  static FunctionPage of(Function fn, Optional<Deployment> deployment, Optional<BuildJob> build,
      List<EventLine> events) {
    FunctionStatus status = fn.getStatus() == null ? new FunctionStatus() : fn.getStatus();
    List<FunctionHistoryEntry> history = status.getHistory() == null ? List.of() : List.copyOf(status.getHistory());
    Optional<DeploymentRollout> rollout = deployment.map(DeploymentRollout::of);
    return new FunctionPage(
        FunctionSummary.of(fn, rollout),
        fn.getMetadata().getLabels() == null ? null : fn.getMetadata().getLabels().get(Labels.REPOSITORY),
        status.getConditions() == null ? List.of() : List.copyOf(status.getConditions()),
        build.orElse(null),
        rollout.orElse(null),
        history,
        Timeline.of(history, status.getRollback()),
        status.getRollback(),
        KnownRevisions.of(fn).pinnableRevisions(),
        events);
  }

  /** The repository's page, from the label: {@code /repositories/<namespace>/<name>}, or null. */
  public String repositoryPath() {
    return Labels.repositoryOf(repository).map(r -> "/repositories/" + r.namespace() + "/" + r.name()).orElse(null);
  }

  /** Where the whole log of its newest build is. */
  public String buildLogPath() {
    return "/functions/" + function.namespace() + "/" + function.name() + "/build-log";
  }

  /** A digest of what the page shows, as {@link Overview#version()}. */
  public String version() {
    return Versions.of(this);
  }
}
