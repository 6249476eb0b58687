package io.gitfn.reconcile;

import java.time.Duration;
import java.util.Optional;

/**
 * A kind's declared summary: what its conditions say about a pass. It decides which condition a failed step shows
 * and how (Stalled, retried or waiting), what the summary conditions say once the steps are done (Flux's
 * {@code summarize.Conditions}), and the kind's own beat, when no step asked to look sooner.
 *
 * @param <S> the state of one pass of the kind
 */
public interface Summary<S extends PassState<?, ?>> {

  /** Shows that {@code step} failed: which condition says so, with what status. */
  void failed(S state, Step<S> step, StepFailure failure);

  /** After the steps: derives the kind's summary conditions from what the steps found. */
  void summarize(S state);

  /** When to look again when no step asked sooner; empty when only a change should start the next pass. */
  Optional<Duration> beat(S state);
}
