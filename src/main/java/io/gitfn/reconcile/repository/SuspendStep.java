package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.SUSPENDED;

import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;

/**
 * A suspended repository applies nothing: Ready says it is suspended, with what Git holds, until it is resumed.
 * What it applied before keeps running.
 */
final class SuspendStep implements Step<RepositoryState> {

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    state.found(Finding.settled("True", SUSPENDED, "suspended; Git holds " + state.fetched()
        + ", nothing is applied until resumed"));
    return Result.next();
  }
}
