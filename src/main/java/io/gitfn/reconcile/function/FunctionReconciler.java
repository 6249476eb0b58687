package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.BuildSettings;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.RetryLater;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.SecretData;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StatusWriter;
import io.gitfn.reconcile.StepRunner;
import io.gitfn.reconcile.Steps;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.WrittenStatuses;
import io.gitfn.source.MirrorCache;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a Function: builds its image once per content key and rolls it out. Its pass is its step list:
 * {@link PlanStep} (content key, image, context), {@link PinStep}, {@link LayeredImageStep} or
 * {@link BuildlessStep} (the desired release), {@link WorkloadStep} (the dependents apply the release that runs), {@link ObserveRolloutStep},
 * {@link RollbackStep}, {@link CleanupStep}, then {@link ForgeStep} and {@link RepositoryNoticeStep}, which act once
 * the status is written. Each step goes as far as the world allows and a failed one shows on its condition
 * ({@link FunctionConditions}), while the steps after it still run: a Function whose build failed keeps its running
 * Deployment watched.
 *
 * <p>A Job or Deployment that moves, a Git source that moves and a build slot that frees up each wake the Function
 * through an event source, so nothing polls.
 */
@Workflow(explicitInvocation = true, dependents = {
    @Dependent(name = "deployment", type = FunctionDeployment.class,
        reconcilePrecondition = FunctionDeployment.HasRelease.class),
    @Dependent(name = "service", type = FunctionService.class),
    @Dependent(name = "hpa", type = FunctionHpa.class, reconcilePrecondition = FunctionHpa.RoomToScale.class)})
public final class FunctionReconciler implements Reconciler<Function>, Cleaner<Function> {

  private final Steps<FunctionState> steps;
  private final StepRunner<Function, FunctionState> runner;
  private final KubernetesClient client;
  private final PlanStep plan;
  private final BuildSlots slots;
  private final ForgeReports forge;
  private final ControllerSettings settings;
  private final WakeUps<Function> wakeUps;
  private final WakeUps<FunctionRepository> repositories;
  private final Clock clock;
  private final FunctionCaches caches;
  private final WrittenStatuses<Function> written;

  /**
   * @param sources binds each Function's Git source to the watcher, which wakes it through {@code wakeUps}
   * @param slots the cluster-wide build queue
   * @param wakeUps where the watcher, the build queue and the forge wake a Function
   * @param repositories where a Function's FunctionRepository is told that it moved
   * @param caches where the controller's informers are handed over as it starts
   * @param written the statuses {@code writer} wrote that the informer may not show yet
   */
  public FunctionReconciler(KubernetesClient client, SourceBinding sources, MirrorCache mirrors,
      BuildSettings builds, BuildSlots slots, WorkloadSettings workloads, ControllerSettings settings,
      ForgeReports forge, WakeUps<Function> wakeUps, WakeUps<FunctionRepository> repositories, StatusWriter writer,
      WrittenStatuses<Function> written, FunctionCaches caches, Clock clock, MeterRegistry meters) {
    this.client = client;
    this.caches = caches;
    this.written = written;
    this.slots = slots;
    this.forge = forge;
    this.settings = settings;
    this.wakeUps = wakeUps;
    this.repositories = repositories;
    this.clock = clock;
    this.runner = new StepRunner<>(new FunctionConditions(), writer);
    this.plan = new PlanStep(sources, mirrors, builds, settings.functionSourceInterval(),
        new RevisionSignatures(sources, mirrors, clock), namespace -> Optional.ofNullable(
            client.namespaces().withName(namespace).get()).map(n -> n.getMetadata().getLabels() == null ? Map.of()
            : n.getMetadata().getLabels()));
    BuildJobs buildJobs = new BuildJobs(client, builds);
    BuildlessSources buildless = new BuildlessSources(client, builds);
    AutoRollbacks rollbacks = new AutoRollbacks(settings.autoRollback(), clock, meters);
    this.steps = Steps.<FunctionState>of(plan, new PinStep(buildless),
        new LayeredImageStep(buildJobs, builds, slots, new LayeredImages(builds.pushDeadline(), clock), wakeUps,
            (namespace, name) -> SecretData.of(client.secrets().inNamespace(namespace).withName(name).get()), meters),
        new BuildlessStep(buildless, builds), new WorkloadStep(rollbacks, buildless, workloads, builds),
        new ObserveRolloutStep(client), new RollbackStep(rollbacks), new CleanupStep(buildJobs, buildless, builds))
        .goingOnAfterFailures().always(new ForgeStep(forge), new RepositoryNoticeStep(repositories));
  }

  @Override
  public List<EventSource<?, Function>> prepareEventSources(EventSourceContext<Function> context) {
    caches.functions(context.getPrimaryCache());
    // The dependents bring their own informers; Jobs are not dependents, since a pass may keep several.
    InformerEventSource<Job, Function> jobInformer = InstallInformers.jobs(context, settings.shard());
    caches.jobs(jobInformer);
    slots.countFrom(jobInformer::list);
    return List.of(jobInformer, InstallInformers.pods(context, settings.shard(), jobInformer), wakeUps.source());
  }

  @Override
  public UpdateControl<Function> reconcile(Function cached, Context<Function> context) throws RetryLater {
    Function fn = written.freshest(cached);
    if (!caches.knowsDeployments()) { // the workflow's dependent owns the Deployment informer
      caches.deployments(context.eventSourceRetriever().getEventSourceFor(Deployment.class));
    }
    FunctionState state = new FunctionState(fn, context, context.getSecondaryResources(Job.class),
        context.getSecondaryResources(Pod.class), clock, client.getKubernetesSerialization());
    return runner.run(state, steps);
  }

  @Override
  public DeleteControl cleanup(Function fn, Context<Function> context) {
    forge.forget(PlanStep.KIND, fn.getMetadata().getNamespace(), fn.getMetadata().getName());
    plan.untrack(fn);
    slots.forget(LayeredImageStep.owner(fn));
    RepositoryNoticeStep.wakeOwner(repositories, fn); // it may want the Function back
    return DeleteControl.defaultDelete(); // the children go with their owner
  }
}
