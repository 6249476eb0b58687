package io.gitfn.reconcile.repository;

import io.gitfn.api.Annotations;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.Step;
import io.gitfn.trigger.SourceId;
import java.util.Optional;

/**
 * Checks Git at once when {@code gitfn.io/requested-at} holds a value not yet acted on. The value counts as handled
 * only in a pass that saw a check which started after the request, so that {@code status.lastHandledRequestedAt}
 * means "Git was checked and its answer applied" ({@code gitfn reconcile --wait} waits for exactly that). Until that
 * check answers, the pass stops here: applying the revision Git held before would be a full sync for nothing, since
 * the check's answer wakes the repository again.
 */
final class RequestStep implements Step<RepositoryState> {

  private final SourceBinding sources;

  RequestStep(SourceBinding sources) {
    this.sources = sources;
  }

  @Override
  public Result run(RepositoryState state) {
    SourceId id = RepositoryState.idOf(state.resource());
    Optional<String> requested = Annotations.get(state.resource(), Annotations.REQUESTED_AT);
    if (requested.isEmpty() || requested.get().equals(state.status().getLastHandledRequestedAt())) {
      sources.handled(id);
      return Result.next();
    }
    if (sources.request(id, requested.get())) {
      state.status().setLastHandledRequestedAt(requested.get());
      sources.handled(id);
      // The check that answered it may have brought another revision: what the watcher knows now is what applies.
      state.source(state.tracked(), sources.state(id));
      FetchedStep.report(state);
      return Result.next();
    }
    return Result.stopFor(Requeue.REQUEST_PENDING);
  }
}
