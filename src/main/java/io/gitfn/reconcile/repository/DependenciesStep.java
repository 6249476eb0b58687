package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.DEPENDENCY_NOT_READY;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SPEC;

import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.api.repository.RepositoryReference;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.ShardSelector;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.WrittenStatuses;
import io.gitfn.source.Revision;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Guarantees that every FunctionRepository in {@code spec.dependsOn} runs its revision (shows Ready for its
 * generation) before this one applies anything. Read from the controller's cache of FunctionRepositories, with each
 * one's own status writes in front of it, so it costs no call and trusts only what the API server showed. Waits while a
 * dependency does not run; stalls on a repository that depends on itself.
 */
final class DependenciesStep implements Step<RepositoryState> {

  private final ShardSelector shard;
  private final WrittenStatuses<FunctionRepository> written;

  DependenciesStep(ShardSelector shard, WrittenStatuses<FunctionRepository> written) {
    this.shard = shard;
    this.written = written;
  }

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    FunctionRepository repository = state.resource();
    List<RepositoryReference> dependencies = repository.getSpec().getDependsOn();
    if (dependencies == null || dependencies.isEmpty()) {
      return Result.next();
    }
    String namespace = repository.getMetadata().getNamespace();
    // A spec only a person can fix stalls at once, whether or not Git has answered yet.
    for (RepositoryReference dependency : dependencies) {
      String dependencyNamespace = dependency.getNamespace() == null ? namespace : dependency.getNamespace();
      if (dependencyNamespace.equals(namespace) && dependency.getName().equals(repository.getMetadata().getName())) {
        throw StepFailure.stalled(INVALID_SPEC, "spec.dependsOn names this FunctionRepository itself");
      }
    }
    Revision revision = state.fetched();
    List<String> waiting = new ArrayList<>();
    for (RepositoryReference dependency : dependencies) {
      String dependencyNamespace = dependency.getNamespace() == null ? namespace : dependency.getNamespace();
      String who = dependencyNamespace + "/" + dependency.getName();
      Optional<FunctionRepository> found = state.context().getPrimaryCache()
          .get(new ResourceID(dependency.getName(), dependencyNamespace)).map(written::freshest);
      if (found.isEmpty()) {
        waiting.add(who + " does not exist" + (shard.isAll() ? "" : " in this controller's shard"));
      } else if (!RepositoryState.runs(found.get())) {
        waiting.add(who + " is not Ready: " + Optional.ofNullable(found.get().getStatus())
            .flatMap(s -> Conditions.find(s.getConditions(), RepositoryConditionType.READY))
            .map(c -> c.getReason() + ": " + c.getMessage()).orElse("no status yet"));
      }
    }
    if (waiting.isEmpty()) {
      return Result.next();
    }
    state.verdict(new Verdict(revision, CommitState.PENDING, DEPENDENCY_NOT_READY,
        "waiting for the repositories it depends on"));
    throw StepFailure.waiting(DEPENDENCY_NOT_READY, "waiting for " + waiting.size() + " of " + dependencies.size()
        + " dependencies to run their revision before applying anything; " + String.join("; ", waiting),
        Requeue.DEPENDENCY_CHECK);
  }
}
