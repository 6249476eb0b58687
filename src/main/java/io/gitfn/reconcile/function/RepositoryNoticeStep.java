package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.WakeUps;
import java.util.Map;

/**
 * Once the API server shows the Function's new status, wakes the FunctionRepository that applied it (its
 * {@code gitfn.io/repository} label) when its progress moved: another phase or reason, or another generation (an
 * edit by someone else, which the repository sets back at once). The repository then reads the Function from the
 * cache, which holds this very write, so it never judges from a status the API server does not show.
 */
final class RepositoryNoticeStep implements FunctionStep {

  private final WakeUps<FunctionRepository> repositories;

  RepositoryNoticeStep(WakeUps<FunctionRepository> repositories) {
    this.repositories = repositories;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    state.afterWrite(() -> {
      FunctionProgress after = FunctionProgress.of(state.fn(), state.status());
      if (after.movedFrom(state.progressBefore())) {
        wakeOwner(repositories, state.fn());
      }
    });
    return Result.next();
  }

  /** Wakes the repository the Function's label names, if it has one. */
  static void wakeOwner(WakeUps<FunctionRepository> repositories, Function fn) {
    Map<String, String> labels = fn.getMetadata().getLabels();
    String owner = labels == null ? null : labels.get(Labels.REPOSITORY);
    if (owner != null) {
      Labels.repositoryOf(owner).ifPresent(r -> repositories.wake(r.namespace(), r.name()));
    }
  }
}
