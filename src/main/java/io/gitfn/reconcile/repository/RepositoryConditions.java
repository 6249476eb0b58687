package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_READ_FAILED;
import static io.gitfn.api.repository.RepositoryConditionType.READY;
import static io.gitfn.api.repository.RepositoryConditionType.RECONCILING;
import static io.gitfn.api.repository.RepositoryConditionType.STALLED;

import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.StatusDraft;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.Summary;
import io.gitfn.source.Revision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A FunctionRepository's declared summary, in kstatus' words. {@code Ready} sums a pass up; {@code Reconciling} is
 * True while the controller works toward Ready by itself (a fetch, a rollout, a dependency, a retry);
 * {@code Stalled} is True while only a person can move it (an invalid spec, Secret or revision). Never both.
 *
 * <p>Every pass ends in one {@link Finding}, the last step's word, and Ready says it. A Git check failing now
 * outranks every finding but a stall: what was applied stays, and the repository is not Ready while its source
 * fails. A stall while a revision is being applied records that revision in the history as Failed.
 */
final class RepositoryConditions implements Summary<RepositoryState> {

  static final String APPLIED = "Applied";
  static final String FAILED = "Failed";

  /** How a finding sits among the three conditions. */
  enum Shape {
    /** Ready False and Stalled True: only a person can fix it. */
    STALLED,
    /** Reconciling True: the controller works on it by itself. */
    RECONCILING,
    /** Neither: the revision runs, is suspended, or its Functions failed. */
    SETTLED
  }

  /**
   * What a pass found, as Ready shows it.
   *
   * @param ready Ready's status
   * @param warning whether its Event is a Warning
   */
  record Finding(Shape shape, String ready, String reason, String message, boolean warning) {

    static Finding stalled(String reason, String message) {
      return new Finding(Shape.STALLED, "False", reason, message, true);
    }

    static Finding reconciling(String ready, String reason, String message, boolean warning) {
      return new Finding(Shape.RECONCILING, ready, reason, message, warning);
    }

    static Finding settled(String ready, String reason, String message) {
      return new Finding(Shape.SETTLED, ready, reason, message, "False".equals(ready));
    }
  }

  @Override
  public void failed(RepositoryState state, Step<RepositoryState> step, StepFailure failure) {
    if (failure instanceof StepFailure.Stalled) {
      state.found(Finding.stalled(failure.reason(), failure.getMessage()));
      state.attempted().ifPresent(revision -> failedRevision(state, revision, failure));
    } else if (failure instanceof StepFailure.Waiting waiting) {
      state.found(Finding.reconciling("False", failure.reason(), failure.getMessage(), waiting.warning()));
    } else {
      state.found(Finding.reconciling("False", failure.reason(), failure.getMessage(), true));
    }
  }

  /** A revision that cannot be applied: it goes into the history, and the forge hears of it. */
  private static void failedRevision(RepositoryState state, Revision revision, StepFailure failure) {
    if (record(state, revision, FAILED, 0, 0, 0)) {
      state.draft().note(READY, failure.getMessage()); // a new revision failed: news, even if the reason stays
    }
    if (state.verdict().filter(v -> v.revision().equals(revision)).isEmpty()) {
      // A revision that cannot be read is not the commit's fault; one that is invalid or refused is.
      state.verdict(new Verdict(revision, SOURCE_READ_FAILED.equals(failure.reason()) ? CommitState.ERROR
          : CommitState.FAILURE, failure.reason(), failure.getMessage()));
    }
  }

  @Override
  public void summarize(RepositoryState state) {
    Optional<Finding> found = state.finding();
    if (found.isEmpty()) {
      return; // the pass stopped before it found anything: the status stands as it was
    }
    Finding finding = found.get();
    Optional<String> gitFails = state.source().error();
    if (finding.shape() != Shape.STALLED && gitFails.isPresent() && !SOURCE_FAILED.equals(finding.reason())) {
      finding = Finding.reconciling("False", SOURCE_FAILED, "Git check failed; keeping "
          + Objects.requireNonNullElse(state.status().getLastAppliedRevision(), "nothing") + ": " + gitFails.get(),
          true);
    }
    StatusDraft<FunctionRepositoryStatus> draft = state.draft();
    draft.set(READY, finding.ready(), finding.reason(), finding.message(), finding.warning());
    switch (finding.shape()) {
      case STALLED -> {
        draft.set(STALLED, "True", finding.reason(), finding.message());
        draft.remove(RECONCILING);
      }
      case RECONCILING -> {
        draft.set(RECONCILING, "True", finding.reason(), finding.message());
        draft.remove(STALLED);
      }
      case SETTLED -> {
        draft.remove(RECONCILING);
        draft.remove(STALLED);
      }
    }
  }

  @Override
  public Optional<Duration> beat(RepositoryState state) {
    return Optional.of(state.beat());
  }

  /**
   * Adds a history entry, newest first, unless the newest already says the same with nothing changed; returns
   * whether it added one.
   */
  static boolean record(RepositoryState state, Revision revision, String outcome, int created, int updated,
      int deleted) {
    FunctionRepositoryStatus status = state.status();
    List<SyncRecord> history = status.getHistory() == null ? new ArrayList<>() : new ArrayList<>(status.getHistory());
    if (!history.isEmpty() && revision.toString().equals(history.get(0).getRevision())
        && outcome.equals(history.get(0).getOutcome()) && created + updated + deleted == 0) {
      return false; // the same outcome again is not history
    }
    SyncRecord entry = new SyncRecord();
    entry.setRevision(revision.toString());
    entry.setTime(state.now().toString());
    entry.setOutcome(outcome);
    entry.setCreated(created);
    entry.setUpdated(updated);
    entry.setDeleted(deleted);
    state.signature().filter(signed -> revision.toString().equals(signed.getRevision())).ifPresent(signed -> {
      entry.setKeyFingerprint(signed.getKeyFingerprint());
      entry.setSigner(signed.getSigner());
    });
    state.commit().ifPresent(commit -> {
      entry.setMessage(commit.subject());
      entry.setAuthor(commit.author());
      entry.setCommitTime(commit.time() == null ? null : commit.time().toString());
    });
    history.add(0, entry);
    status.setHistory(history.size() > FunctionRepositoryStatus.HISTORY_LIMIT
        ? new ArrayList<>(history.subList(0, FunctionRepositoryStatus.HISTORY_LIMIT)) : history);
    return true;
  }
}
