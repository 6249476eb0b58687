package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.DEPENDENCY_NOT_READY;
import static io.gitfn.api.repository.RepositoryConditionReason.FUNCTIONS_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.PROGRESSING;
import static io.gitfn.api.repository.RepositoryConditionReason.ROLLING_OUT;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_NOT_READY;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_READ_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.SUCCEEDED;
import static io.gitfn.api.repository.RepositoryConditionReason.SUSPENDED;
import static io.gitfn.api.repository.RepositoryConditionType.READY;
import static io.gitfn.api.repository.RepositoryConditionType.RECONCILING;
import static io.gitfn.api.repository.RepositoryConditionType.STALLED;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.PendingFunction;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.api.repository.WebhookReceipt;
import io.gitfn.events.EventRecorder;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.source.CommitSummary;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceState;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One reconcile of a FunctionRepository: what its steps found, as kstatus conditions ({@code Ready},
 * {@code Reconciling}, {@code Stalled}), a bounded history of the revisions it applied or refused, and one Event
 * when the conditions changed. Status is written only when it changed.
 */
final class RepositoryPass {

  static final String APPLIED = "Applied";
  static final String FAILED = "Failed";
  // A failure the next pass may not have comes back soon; so does a repository waiting for its first fetch.
  private static final Duration RETRY = Duration.ofSeconds(10);
  private static final Duration FIRST_FETCH = Duration.ofSeconds(5);
  private static final Duration ROLLOUT_CHECK = Duration.ofSeconds(30);
  private static final Duration DEPENDENCY_CHECK = Duration.ofSeconds(30);

  private final FunctionRepository repository;
  private final StatusPass<FunctionRepository, FunctionRepositoryStatus> pass;
  private final Clock clock;
  private String eventType;
  private CommitSummary commit;
  private String eventReason;
  private String eventMessage;
  private Verdict verdict;

  RepositoryPass(FunctionRepository repository, Clock clock, KubernetesSerialization json) {
    this.repository = repository;
    this.pass = new StatusPass<>(repository, FunctionRepositoryStatus::new, clock, json);
    this.clock = clock;
  }

  FunctionRepositoryStatus status() {
    return pass.status();
  }

  /** The revision Git holds and the webhook delivery that last asked for a check. */
  void reportGit(SourceState state) {
    state.revision().ifPresent(r -> status().setLastFetchedRevision(r.toString()));
    state.lastDelivery().ifPresent(d -> {
      WebhookReceipt receipt = new WebhookReceipt();
      receipt.setForge(d.forge());
      receipt.setDeliveryId(d.deliveryId());
      receipt.setTime(d.at().toString());
      state.revision().ifPresent(r -> receipt.setRevision(r.toString()));
      status().setLastWebhook(receipt);
    });
  }

  /** No revision yet: the first check is running, or failed. */
  void waiting(String message) {
    pass.set(READY, "False", SOURCE_NOT_READY, message);
    pass.set(RECONCILING, "True", PROGRESSING, message);
    pass.remove(STALLED);
    pass.retryWithin(FIRST_FETCH);
    event("Warning", SOURCE_NOT_READY, message);
  }

  void suspended(Revision revision) {
    pass.set(READY, "True", SUSPENDED, "suspended; Git holds " + revision + ", nothing is applied until resumed");
    pass.remove(RECONCILING);
    pass.remove(STALLED);
  }

  /** The last check of Git failed; what was applied stays, and the watcher keeps retrying. */
  void sourceFailing(String message) {
    String text = "Git check failed; keeping " + Optional.ofNullable(status().getLastAppliedRevision()).orElse("nothing")
        + ": " + message;
    pass.set(READY, "False", SOURCE_FAILED, text);
    pass.set(RECONCILING, "True", SOURCE_FAILED, text);
    pass.remove(STALLED); // kstatus: a resource that is being retried is not stalled
    event("Warning", SOURCE_FAILED, text);
  }

  /** A failure that the next pass may not have: Reconciling, not Stalled, and a quick retry. */
  void retrying(String reason, String message) {
    pass.set(READY, "False", reason, message);
    pass.set(RECONCILING, "True", reason, message);
    pass.remove(STALLED);
    pass.retryWithin(RETRY);
    event("Warning", reason, message);
  }

  /** A failure only a person can fix: Stalled until the spec, the Secret or Git changes. */
  void stalled(String reason, String message) {
    pass.set(READY, "False", reason, message);
    pass.set(STALLED, "True", reason, message);
    pass.remove(RECONCILING);
    event("Warning", reason, message);
  }

  /** A revision that cannot be applied, recorded in the history. */
  void failed(Revision revision, String reason, String message) {
    stalled(reason, message);
    // A revision that cannot be read is not the commit's fault; one that is invalid or refused is.
    verdict = new Verdict(revision, SOURCE_READ_FAILED.equals(reason) ? CommitState.ERROR : CommitState.FAILURE,
        reason, message);
    record(revision, FAILED, 0, 0, 0);
  }

  /** Stalls or retries, as the failure's class says. */
  void failed(Revision revision, Exception e, String reason, String message) {
    if (Failure.stalls(e)) {
      failed(revision, reason, message);
    } else {
      retrying(reason, message);
    }
  }

  /**
   * The revision is applied; {@code Ready} says whether it runs. True once every Function of it is
   * {@link FunctionProgress.Phase#RUNNING} (or pinned), Unknown with {@code RollingOut} while any builds or rolls
   * out, False with {@code FunctionsFailed} once one failed and none is still moving. {@code status.pending} names
   * the Functions that do not run it, failed ones first.
   */
  void applied(Revision revision, List<Function> functions, SyncResult result, List<FunctionProgress> progress) {
    FunctionRepositoryStatus status = status();
    boolean changed = !revision.toString().equals(status.getLastAppliedRevision())
        || !result.created().isEmpty() || !result.updated().isEmpty() || !result.deleted().isEmpty();
    status.setLastAppliedRevision(revision.toString());
    status.setInventory(functions.stream().map(f -> {
      InventoryEntry entry = new InventoryEntry();
      entry.setName(f.getMetadata().getName());
      entry.setNamespace(f.getMetadata().getNamespace() == null
          ? repository.getMetadata().getNamespace() : f.getMetadata().getNamespace());
      return entry;
    }).toList());
    String applied = "Applied revision " + revision + ": " + functions.size() + " Functions ("
        + result.created().size() + " created, " + result.updated().size() + " updated, "
        + result.deleted().size() + " deleted)";
    if (changed) {
      record(revision, APPLIED, result.created().size(), result.updated().size(), result.deleted().size());
    }
    reportRunning(revision, functions.size(), progress, changed ? applied : null);
  }

  /**
   * The revision {@code status.lastAppliedRevision} names is still what Git and the spec ask for, and nothing of it
   * was re-applied: only its Functions' progress is new. The inventory stays as the last apply left it.
   */
  void progressed(Revision revision, List<FunctionProgress> progress) {
    reportRunning(revision, progress.size(), progress, null);
  }

  private void reportRunning(Revision revision, int total, List<FunctionProgress> progress, String applied) {
    String namespace = repository.getMetadata().getNamespace();
    List<FunctionProgress> failed = progress.stream().filter(p -> p.phase() == FunctionProgress.Phase.FAILED).toList();
    List<FunctionProgress> moving = progress.stream()
        .filter(p -> p.phase() == FunctionProgress.Phase.ROLLING_OUT).toList();
    List<FunctionProgress> pinned = progress.stream().filter(p -> p.phase() == FunctionProgress.Phase.PINNED).toList();
    List<FunctionProgress> pending = new ArrayList<>(failed);
    pending.addAll(moving);
    status().setPending(pending.isEmpty() ? null : pending.stream().limit(FunctionRepositoryStatus.PENDING_LIMIT)
        .map(p -> new PendingFunction(p.name(), p.namespace(),
            p.phase() == FunctionProgress.Phase.FAILED ? "Failed" : "RollingOut", p.reason(), p.message()))
        .toList());
    String pinnedNote = pinned.isEmpty() ? "" : "; pinned, so running another revision: "
        + pinned.stream().map(p -> p.describe(namespace)).collect(Collectors.joining("; "));
    pass.remove(STALLED);
    if (!moving.isEmpty()) {
      String message = "revision " + revision + " is applied; " + moving.size() + " of " + total
          + " Functions do not run it yet" + (failed.isEmpty() ? "" : " and " + failed.size() + " failed") + ": "
          + list(pending, namespace);
      pass.set(READY, "Unknown", ROLLING_OUT, message);
      // Not the list of Functions: its words change at every step, and each change would be another request.
      verdict = new Verdict(revision, CommitState.PENDING, ROLLING_OUT, "applied; " + moving.size() + " of " + total
          + " Functions rolling out");
      pass.set(RECONCILING, "True", ROLLING_OUT, message);
      // Function passes wake this one as their phases move; this is only a safety net.
      pass.retryWithin(ROLLOUT_CHECK);
      if (applied != null) { // not at every Function's step: the message changes as they move
        event("Normal", ROLLING_OUT, applied);
      }
    } else if (!failed.isEmpty()) {
      String message = "revision " + revision + " is applied, but " + failed.size() + " of " + total
          + " Functions failed: " + list(failed, namespace);
      pass.set(READY, "False", FUNCTIONS_FAILED, message);
      verdict = new Verdict(revision, CommitState.FAILURE, FUNCTIONS_FAILED, failed.size() + " of " + total + " Functions failed: "
          + list(failed, namespace));
      pass.remove(RECONCILING);
      event("Warning", FUNCTIONS_FAILED, message);
    } else {
      String message = "revision " + revision + " runs: " + (total == 1 ? "1 Function" : total + " Functions")
          + " ready" + pinnedNote;
      pass.set(READY, "True", SUCCEEDED, message);
      verdict = new Verdict(revision, CommitState.SUCCESS, SUCCEEDED, "runs: " + (total == 1 ? "1 Function" : total
          + " Functions") + " ready");
      pass.remove(RECONCILING);
      event("Normal", SUCCEEDED, applied != null ? applied + "; " + message : message);
    }
  }

  private static String list(List<FunctionProgress> progress, String namespace) {
    String shown = progress.stream().limit(FunctionRepositoryStatus.PENDING_LIMIT).map(p -> p.describe(namespace))
        .collect(Collectors.joining("; "));
    int more = progress.size() - FunctionRepositoryStatus.PENDING_LIMIT;
    return more > 0 ? shown + "; and " + more + " more" : shown;
  }

  /** A dependency does not run its revision yet: nothing of this one is applied until it does. */
  void waitingForDependency(Revision revision, String message) {
    verdict = new Verdict(revision, CommitState.PENDING, DEPENDENCY_NOT_READY,
        "waiting for the repositories it depends on");
    pass.set(READY, "False", DEPENDENCY_NOT_READY, message);
    pass.set(RECONCILING, "True", DEPENDENCY_NOT_READY, message);
    pass.remove(STALLED);
    pass.retryWithin(DEPENDENCY_CHECK);
    event("Normal", DEPENDENCY_NOT_READY, message);
  }

  /** Whether this pass leaves the repository Ready: its revision runs, or it is suspended. */
  boolean ready() {
    return pass.condition(READY).filter(c -> "True".equals(c.getStatus())).isPresent();
  }

  /** What this pass found about a revision, if it got that far. */
  Optional<Verdict> verdict() {
    return Optional.ofNullable(verdict);
  }

  /** The conditions as this pass leaves them so far. */
  List<Condition> conditions() {
    return pass.conditions();
  }

  void retryWithin(Duration delay) {
    pass.retryWithin(delay);
  }

  /**
   * Writes status if it changed, and the pass's Event if the conditions did. The next pass comes within
   * {@code interval}, or sooner when a step asked.
   */
  UpdateControl<FunctionRepository> finish(EventRecorder events, Duration interval) {
    if (eventReason != null && pass.conditionsChanged()) {
      if (eventType.equals("Normal")) {
        events.normal(repository, eventReason, eventMessage);
      } else {
        events.warning(repository, eventReason, eventMessage);
      }
    }
    Duration next = pass.retry().filter(retry -> retry.compareTo(interval) < 0).orElse(interval);
    return pass.finish().rescheduleAfter(next);
  }

  /** The commit of the revision this pass read, for its history entry; unknown when Git could not be read. */
  void commit(CommitSummary summary) {
    this.commit = summary;
  }

  private void record(Revision revision, String outcome, int created, int updated, int deleted) {
    FunctionRepositoryStatus status = status();
    List<SyncRecord> history = status.getHistory() == null ? new ArrayList<>() : new ArrayList<>(status.getHistory());
    if (!history.isEmpty() && revision.toString().equals(history.get(0).getRevision())
        && outcome.equals(history.get(0).getOutcome()) && created + updated + deleted == 0) {
      return; // the same outcome again is not history
    }
    SyncRecord entry = new SyncRecord();
    entry.setRevision(revision.toString());
    entry.setTime(clock.instant().toString());
    entry.setOutcome(outcome);
    entry.setCreated(created);
    entry.setUpdated(updated);
    entry.setDeleted(deleted);
    if (commit != null) {
      entry.setMessage(commit.subject());
      entry.setAuthor(commit.author());
      entry.setCommitTime(commit.time() == null ? null : commit.time().toString());
    }
    history.add(0, entry);
    status.setHistory(history.size() > FunctionRepositoryStatus.HISTORY_LIMIT
        ? history.subList(0, FunctionRepositoryStatus.HISTORY_LIMIT) : history);
  }

  // The repository's one Event of the pass: the last step's word.
  private void event(String type, String reason, String message) {
    eventType = type;
    eventReason = reason;
    eventMessage = message;
  }
}
