package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionType.READY;

import io.gitfn.api.repository.RevisionProgress;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;
import io.gitfn.source.Revision;

/**
 * Says whether the applied revision runs ({@link RevisionProgress}): Ready True once every Function runs it, Unknown
 * with {@code RollingOut} while any builds or rolls out (the Functions' passes wake the repository as they move),
 * False with {@code FunctionsFailed} once one failed and none still moves; {@code status.pending} names those that
 * do not run it. The forge hears the same.
 */
final class ProgressStep implements Step<RepositoryState> {

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    Revision revision = state.fetched();
    RevisionProgress progress = RevisionProgress.of(revision.toString(),
        state.resource().getMetadata().getNamespace(), state.functions().orElseThrow());
    state.status().setPending(progress.pending().isEmpty() ? null : progress.pending());
    state.verdict(new Verdict(revision, progress.moving() > 0 ? CommitState.PENDING
        : progress.failed() > 0 ? CommitState.FAILURE : CommitState.SUCCESS, progress.reason(), progress.brief()));
    if (progress.moving() > 0) {
      state.found(Finding.reconciling(progress.ready(), progress.reason(), progress.message(), false));
      // The news of a new apply, not the list of Functions, whose words change at every step.
      state.appliedNote().ifPresent(note -> state.draft().note(READY, note));
      return Result.within(Requeue.ROLLOUT_CHECK);
    }
    state.found(Finding.settled(progress.ready(), progress.reason(), progress.message()));
    if (progress.runs()) {
      state.appliedNote().ifPresent(note -> state.draft().note(READY, note + "; " + progress.message()));
    } else {
      state.appliedNote().ifPresent(note -> state.draft().note(READY, progress.message()));
    }
    return Result.next();
  }
}
