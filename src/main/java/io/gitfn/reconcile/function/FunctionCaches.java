package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.Function;
import io.gitfn.reconcile.WrittenStatuses;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The Function controller's informer caches, for whoever reads them without a call: the dashboard, and the
 * FunctionRepository passes at rest. It holds references to the informers, which the controller hands over as it
 * starts, and nothing else; before that, every answer is empty.
 */
public final class FunctionCaches {

  private final WrittenStatuses<Function> written;
  private volatile IndexerResourceCache<Function> functions;
  private volatile EventSource<Job, Function> jobs;
  private volatile EventSource<Deployment, Function> deployments;

  /** @param written the Function statuses written that the informer may not show yet, which reads see first */
  public FunctionCaches(WrittenStatuses<Function> written) {
    this.written = written;
  }

  void functions(IndexerResourceCache<Function> cache) {
    this.functions = cache;
  }

  void jobs(EventSource<Job, Function> informer) {
    this.jobs = informer;
  }

  void deployments(EventSource<Deployment, Function> informer) {
    this.deployments = informer;
  }

  boolean knowsDeployments() {
    return deployments != null;
  }

  /** Every cached Function. */
  public Collection<Function> functions() {
    IndexerResourceCache<Function> current = functions;
    return current == null ? List.of() : current.list().toList();
  }

  /** The cached Function, with its controller's last status write if the informer does not show it yet. */
  public Optional<Function> function(String namespace, String name) {
    IndexerResourceCache<Function> current = functions;
    return current == null ? Optional.empty() : current.get(new ResourceID(name, namespace)).map(written::freshest);
  }

  /** The Function's Deployment. */
  public Optional<Deployment> deploymentOf(Function fn) {
    EventSource<Deployment, Function> current = deployments;
    return current == null ? Optional.empty() : current.getSecondaryResource(fn);
  }

  /** The Function's build Jobs: metadata and status. */
  public Collection<Job> jobsOf(Function fn) {
    EventSource<Job, Function> current = jobs;
    return current == null ? List.of() : current.getSecondaryResources(fn);
  }
}
