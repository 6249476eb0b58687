package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionType.READY;

import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.WakeUps;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * Once the API server shows this repository running its revision where it did not before, wakes the repositories
 * whose {@code spec.dependsOn} names it, so that they apply at once instead of at their next look. A status write
 * that fails wakes nobody: a dependent acts only on a Ready the object shows.
 */
final class DependentsStep implements Step<RepositoryState> {

  private final WakeUps<FunctionRepository> wakeUps;

  DependentsStep(WakeUps<FunctionRepository> wakeUps) {
    this.wakeUps = wakeUps;
  }

  @Override
  public Result run(RepositoryState state) {
    state.afterWrite(() -> {
      boolean ready = state.draft().condition(READY).filter(c -> "True".equals(c.getStatus())).isPresent();
      if (ready && !state.wasReady()) {
        wake(state);
      }
    });
    return Result.next();
  }

  private void wake(RepositoryState state) {
    FunctionRepository repository = state.resource();
    String namespace = repository.getMetadata().getNamespace();
    String name = repository.getMetadata().getName();
    state.context().getPrimaryCache().list().filter(r -> r.getSpec() != null && r.getSpec().getDependsOn() != null
        && r.getSpec().getDependsOn().stream().anyMatch(d -> name.equals(d.getName())
            && namespace.equals(d.getNamespace() == null ? r.getMetadata().getNamespace() : d.getNamespace())))
        .forEach(r -> wakeUps.wake(ResourceID.fromResource(r)));
  }
}
