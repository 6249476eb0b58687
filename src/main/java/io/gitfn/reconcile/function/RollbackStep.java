package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.gitfn.reconcile.Result;

/**
 * Automatic rollback, once the rollout was observed: while a rollback holds, Running says so and why; otherwise a
 * release whose rollout failed is quarantined, so that the next pass, asked for at once, puts the last version that
 * ran back ({@link AutoRollbacks}). Not for a pinned Function, nor where the Function or the controller turned it off.
 */
final class RollbackStep implements FunctionStep {

  private final AutoRollbacks rollbacks;

  RollbackStep(AutoRollbacks rollbacks) {
    this.rollbacks = rollbacks;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    if (state.holding() != null) {
      AutoRollbacks.report(state.fn(), state.holding(), state.rolledOut(), state);
    } else if (state.pin() == null && state.release().isPresent() && rollbacks.appliesTo(state.fn())) {
      rollbacks.check(state.fn(), state.release().get(), state);
    }
    return Result.next();
  }
}
