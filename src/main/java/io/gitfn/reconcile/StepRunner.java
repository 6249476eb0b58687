package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a kind's steps for one pass, and is the only place that catches what they throw.
 *
 * <p>The steps run in order until one stops or fails (or, in a list that goes on after failures, until one stops);
 * a failure is classified ({@link Failures#classify}) and shown by the kind's {@link Summary}. The reporting steps
 * run after that, whatever happened. Then the summary derives the
 * kind's conditions, the {@link StatusWriter} writes the status (if it changed) and its Events, and only then, once
 * the API server shows it, the pass's after-write actions run. A failure that may pass by itself is handed back to
 * the SDK as {@link RetryLater}, which retries with backoff; a stall or a wait asks for the next pass at its own
 * time, and so does the kind's beat.
 *
 * @param <R> the resource
 * @param <S> the state of one pass of the kind
 */
public final class StepRunner<R extends CustomResource<?, ?>, S extends PassState<R, ?>> {

  private final Summary<S> summary;
  private final StatusWriter writer;

  public StepRunner(Summary<S> summary, StatusWriter writer) {
    this.summary = summary;
    this.writer = writer;
  }

  /**
   * Runs one pass.
   *
   * @throws RetryLater after the status showed a failure that may pass by itself
   * @throws RuntimeException when the status write failed: nothing after it happened, and the SDK retries
   */
  public UpdateControl<R> run(S state, Steps<S> steps) throws RetryLater {
    List<StepFailure> failures = new ArrayList<>();
    for (Step<S> step : steps.main()) {
      try {
        Result result = step.run(state);
        state.requeueWithin(result.requeue());
        if (result.stop()) {
          break;
        }
      } catch (Exception e) {
        failures.add(failed(state, step, e));
        if (!steps.goOnAfterFailure()) {
          break;
        }
      }
    }
    for (Step<S> step : steps.always()) {
      try {
        state.requeueWithin(step.run(state).requeue());
      } catch (Exception e) {
        failures.add(failed(state, step, e));
      }
    }
    summary.summarize(state);
    writer.write(state);
    state.afterWriteActions().forEach(Runnable::run);
    Optional<StepFailure.Retry> retry = failures.stream().filter(StepFailure.Retry.class::isInstance)
        .map(StepFailure.Retry.class::cast).findFirst();
    if (retry.isPresent()) {
      throw new RetryLater(name(state), retry.get());
    }
    Optional<Duration> next = Result.soonest(state.requeue(), summary.beat(state));
    for (StepFailure failure : failures) {
      next = Result.soonest(next, lookAgain(failure));
    }
    UpdateControl<R> control = UpdateControl.noUpdate();
    return next.map(control::rescheduleAfter).orElse(control);
  }

  private StepFailure failed(S state, Step<S> step, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt(); // the watchdog stopped the pass: the status write fails too, and says so
    }
    StepFailure failure = Failures.classify(e, Step.nameOf(step));
    summary.failed(state, step, failure);
    return failure;
  }

  private static Optional<Duration> lookAgain(StepFailure failure) {
    if (failure instanceof StepFailure.Waiting waiting) {
      return Optional.of(waiting.lookAgain());
    }
    if (failure instanceof StepFailure.Stalled stalled) {
      return stalled.lookAgain();
    }
    return Optional.empty();
  }

  private static String name(PassState<?, ?> state) {
    return state.resource().getKind() + " " + state.resource().getMetadata().getNamespace() + "/"
        + state.resource().getMetadata().getName();
  }
}
