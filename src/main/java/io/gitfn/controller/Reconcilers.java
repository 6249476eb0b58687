package io.gitfn.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.events.EventRecorder;
import io.gitfn.manifest.ManifestOptions;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.reconcile.ApiStatusWriter;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.notify.CommitStatusSender;
import io.gitfn.notify.OpenPullRequests;
import io.gitfn.notify.PullRequestComments;
import io.gitfn.reconcile.repository.PreviewDeliveries;
import io.gitfn.reconcile.repository.PreviewForge;
import io.gitfn.reconcile.repository.PullRequestInbox;
import io.gitfn.reconcile.WrittenStatuses;
import io.gitfn.reconcile.function.BuildSlots;
import io.gitfn.reconcile.function.FunctionCaches;
import io.gitfn.reconcile.function.FunctionReconciler;
import io.gitfn.reconcile.repository.ConfirmedSyncs;
import io.gitfn.reconcile.repository.FunctionRepositoryReconciler;
import io.gitfn.source.MirrorCache;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.workload.WorkloadSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Both reconcilers and what they share, made in one place. The state that outlives a pass and is not in a status
 * lives here, owned by the controller rather than by a reconciler:
 *
 * <ul>
 *   <li>the build queue ({@link BuildSlots}), counted again from the Job informer after a restart;
 *   <li>the forge reports not yet sent ({@link ForgeReports}), prepared again from status after a restart;
 *   <li>the wake-ups ({@link WakeUps}), which hold nothing: a FunctionRepository is woken by the watcher, the forge,
 *       the Functions it applied and the repositories it depends on; a Function by the watcher, the build queue and
 *       the forge;
 *   <li>the informer caches ({@link FunctionCaches}), which the dashboard and the repositories at rest read;
 *   <li>the statuses written that the informers do not show yet ({@link WrittenStatuses}), dropped once they do.
 * </ul>
 *
 * <p>Closed with the controller: the forge's threads send what is pending until then.
 */
record Reconcilers(FunctionRepositoryReconciler repositories, FunctionReconciler functions, FunctionCaches caches,
    ForgeReports forge, WrittenStatuses<FunctionRepository> repositoryStatuses,
    WrittenStatuses<Function> functionStatuses, PreviewDeliveries previews, PreviewForge previewForge)
    implements AutoCloseable {

  static final String BUILD_QUEUE = "gitfn.build.queue";

  static Reconcilers of(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors,
      ControllerSettings settings, BuildSettings builds, WorkloadSettings workloads, Clock clock,
      MeterRegistry meters) {
    WakeUps<FunctionRepository> repositoryWakeUps = new WakeUps<>("repository-wake-ups");
    WakeUps<Function> functionWakeUps = new WakeUps<>("function-wake-ups");
    // Commit statuses go out on threads of their own; both kinds report through them, and hear back.
    ForgeReports forge = new ForgeReports(client, settings, clock, meters);
    forge.onAnswer("FunctionRepository", repositoryWakeUps::wake);
    forge.onAnswer("Function", functionWakeUps::wake);
    EventRecorder events = new EventRecorder(client, clock, settings.instance());
    WrittenStatuses<FunctionRepository> repositoryStatuses = new WrittenStatuses<>("repository", clock,
        client.getKubernetesSerialization());
    WrittenStatuses<Function> functionStatuses = new WrittenStatuses<>("function", clock,
        client.getKubernetesSerialization());
    FunctionCaches caches = new FunctionCaches(functionStatuses);
    PullRequestInbox inbox = new PullRequestInbox();
    CommitStatusSender sender = new CommitStatusSender();
    PreviewForge previewForge = new PreviewForge(new OpenPullRequests(sender), new PullRequestComments(sender), clock,
        id -> repositoryWakeUps.wake(id.namespace(), id.name()));
    FunctionRepositoryReconciler repositories = new FunctionRepositoryReconciler(client,
        new SourceBinding(client, watcher, settings, clock, id -> repositoryWakeUps.wake(id.namespace(), id.name())),
        mirrors, new ManifestReader(ManifestOptions.defaults().withAllowedKinds(settings.allowedKinds())), settings, forge, caches::function,
        repositoryWakeUps, new ApiStatusWriter<>(events, repositoryStatuses), repositoryStatuses,
        new ConfirmedSyncs(), inbox, previewForge, Stream.of(builds.registrySecret(), builds.packageRegistrySecret())
            .filter(Objects::nonNull).toList(), clock);
    FunctionReconciler functions = new FunctionReconciler(client,
        new SourceBinding(client, watcher, settings, clock, id -> functionWakeUps.wake(id.namespace(), id.name())),
        mirrors, builds, slots(builds, meters), workloads, settings, forge, functionWakeUps, repositoryWakeUps,
        new ApiStatusWriter<>(events, functionStatuses), functionStatuses, caches, clock, meters);
    return new Reconcilers(repositories, functions, caches, forge, repositoryStatuses, functionStatuses,
        new PreviewDeliveries(inbox, repositoryWakeUps), previewForge);
  }

  @Override
  public void close() {
    try (forge; previewForge; repositoryStatuses; functionStatuses) {
      // each closes, even when one before it threw
    }
  }

  /** The cluster-wide build queue; it stays pure, and its depth is read here. */
  private static BuildSlots slots(BuildSettings builds, MeterRegistry meters) {
    BuildQueue queue = new BuildQueue(builds.concurrency());
    Gauge.builder(BUILD_QUEUE, queue, BuildQueue::depth).description("Builds waiting for a slot, and running")
        .tag("state", "waiting").register(meters);
    Gauge.builder(BUILD_QUEUE, queue, BuildQueue::runningCount).description("Builds waiting for a slot, and running")
        .tag("state", "running").register(meters);
    return new BuildSlots(queue);
  }
}
