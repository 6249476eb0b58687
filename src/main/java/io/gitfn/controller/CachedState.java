package io.gitfn.controller;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.dashboard.DashboardServer;
import io.gitfn.reconcile.function.FunctionCaches;
import io.gitfn.reconcile.repository.FunctionRepositoryReconciler;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** What the dashboard shows, straight from the controllers' informer caches: no API call. */
final class CachedState implements DashboardServer.Source {

  private final FunctionRepositoryReconciler repositories;
  private final FunctionCaches functions;

  CachedState(FunctionRepositoryReconciler repositories, FunctionCaches functions) {
    this.repositories = repositories;
    this.functions = functions;
  }

  @Override
  public Collection<FunctionRepository> repositories() {
    return repositories.cache().map(cache -> cache.list().toList()).orElse(List.of());
  }

  @Override
  public Collection<Function> functions() {
    return functions.functions();
  }

  @Override
  public Optional<Deployment> deploymentOf(Function fn) {
    return functions.deploymentOf(fn);
  }

  @Override
  public Collection<Job> jobsOf(Function fn) {
    return functions.jobsOf(fn);
  }
}
