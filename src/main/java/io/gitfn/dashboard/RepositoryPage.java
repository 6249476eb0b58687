package io.gitfn.dashboard;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.Preview;
import io.gitfn.api.repository.SyncRecord;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A FunctionRepository's page: its row of the overview, each of its Functions, the previews of its pull requests,
 * and what its last revisions did.
 *
 * @param functions those labelled for it, the failed first, then those rolling out, then by name
 * @param previews its active pull-request previews ({@code status.previews}), by number
 * @param history newest first, at most {@value #HISTORY} revisions
 */
public record RepositoryPage(RepositorySummary repository, List<FunctionSummary> functions,
    List<PreviewSummary> previews, List<HistoryEntry> history) {

  static final int HISTORY = 10;

  /**
   * What one revision did.
   *
   * @param outcome such as {@code Applied}, {@code Failed} or {@code Refused}
   * @param message the first line of its commit's message, or null when it is not known
   * @param author its commit's author, or null
   * @param commitTime when its author wrote it, or null
   * @param keyFingerprint with {@code spec.verify}, the fingerprint of the key that signed it; null otherwise
   * @param signer who that key belongs to, or null
   */
  public record HistoryEntry(RepositorySummary.Revision revision, String time, String outcome, int created,
      int updated, int deleted, String message, String author, String commitTime, String keyFingerprint,
      String signer) {}

  private static final Comparator<FunctionSummary> ATTENTION_FIRST = Comparator
      .comparing((FunctionSummary f) -> switch (f.progress().phase()) {
        case FAILED -> 0;
        case ROLLING_OUT -> 1;
        case RUNNING, PINNED -> 2;
      })
      .thenComparing(FunctionSummary::namespace)
      .thenComparing(FunctionSummary::name);

  private static final Comparator<PreviewSummary> BY_NUMBER = Comparator.comparing(PreviewSummary::number,
      Comparator.nullsLast(Comparator.naturalOrder()));

  /**
   * @param deployments the Deployment of a Function, as the controller's cache holds it
   */
  static RepositoryPage of(FunctionRepository repository, Collection<Function> allFunctions,
      java.util.function.Function<Function, Optional<Deployment>> deployments) {
    String owner = Labels.repository(repository.getMetadata().getNamespace(), repository.getMetadata().getName());
    List<Function> own = allFunctions.stream().filter(fn -> fn.getMetadata().getLabels() != null
        && owner.equals(fn.getMetadata().getLabels().get(Labels.REPOSITORY))).toList();
    FunctionRepositoryStatus status = repository.getStatus() == null ? new FunctionRepositoryStatus()
        : repository.getStatus();
    List<SyncRecord> records = status.getHistory() == null ? List.of() : status.getHistory();
    List<Preview> previews = status.getPreviews() == null ? List.of() : status.getPreviews();
    return new RepositoryPage(
        RepositorySummary.of(repository, own),
        own.stream().map(fn -> FunctionSummary.of(fn, deployments.apply(fn).map(DeploymentRollout::of)))
            .sorted(ATTENTION_FIRST).toList(),
        previews.stream().filter(Objects::nonNull)
            .map(p -> PreviewSummary.of(repository.getMetadata().getNamespace(), p))
            .sorted(BY_NUMBER).toList(),
        records.stream().limit(HISTORY).map(r -> new HistoryEntry(RepositorySummary.Revision.of(r.getRevision()),
            r.getTime(), r.getOutcome(), count(r.getCreated()), count(r.getUpdated()), count(r.getDeleted()),
            r.getMessage(), r.getAuthor(), r.getCommitTime(), r.getKeyFingerprint(), r.getSigner()))
            .toList());
  }

  private static int count(Integer value) {
    return Objects.requireNonNullElse(value, 0);
  }

  /** A digest of what the page shows, as {@link Overview#version()}. */
  public String version() {
    return Versions.of(this);
  }
}
