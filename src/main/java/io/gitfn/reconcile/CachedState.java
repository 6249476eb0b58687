package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.dashboard.DashboardServer;
import java.util.Collection;
import java.util.Optional;

/** What the dashboard shows, straight from the reconcilers' informer caches: no API call. */
final class CachedState implements DashboardServer.Source {

  private final FunctionRepositoryReconciler repositories;
  private final FunctionReconciler functions;

  CachedState(FunctionRepositoryReconciler repositories, FunctionReconciler functions) {
    this.repositories = repositories;
    this.functions = functions;
  }

  @Override
  public Collection<FunctionRepository> repositories() {
    return repositories.cached();
  }

  @Override
  public Collection<Function> functions() {
    return functions.cached();
  }

  @Override
  public Optional<Deployment> deploymentOf(Function fn) {
    return functions.cachedDeployment(fn);
  }

  @Override
  public Collection<Job> jobsOf(Function fn) {
    return functions.cachedJobs(fn);
  }
}
