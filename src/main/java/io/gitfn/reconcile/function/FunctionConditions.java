package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.gitfn.api.function.FunctionProgress;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.Summary;
import java.time.Duration;
import java.util.Optional;

/**
 * A Function's declared summary. Its status has Kyma's three conditions and no Ready: ConfigurationReady (the spec
 * and its source), BuildReady (the image, or the buildless source) and Running (the Deployment), each owned by the
 * steps that answer for it. What they sum up to is {@link FunctionProgress}: running once all three are True (or
 * pinned), failed once one is False, rolling out otherwise; that is what its FunctionRepository and the forge read.
 *
 * <p>A step that fails shows on its condition: False when only a person can fix it, Unknown while it is retried
 * with backoff or waits. A Function's passes are started by changes alone (its spec, its Jobs, its Deployment, its
 * Git source, a build slot): it has no beat of its own.
 */
final class FunctionConditions implements Summary<FunctionState> {

  @Override
  public void failed(FunctionState state, Step<FunctionState> step, StepFailure failure) {
    String type = step instanceof FunctionStep owned ? owned.condition() : RUNNING;
    if (failure instanceof StepFailure.Stalled) {
      state.draft().set(type, "False", failure.reason(), failure.getMessage());
    } else {
      boolean warning = !(failure instanceof StepFailure.Waiting waiting) || waiting.warning();
      state.draft().set(type, "Unknown", failure.reason(), failure.getMessage(), warning);
    }
  }

  @Override
  public void summarize(FunctionState state) {
    state.status().setRuntime(state.fn().getSpec().getRuntime());
  }

  @Override
  public Optional<Duration> beat(FunctionState state) {
    return Optional.empty();
  }
}
