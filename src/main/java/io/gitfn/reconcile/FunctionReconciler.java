package io.gitfn.reconcile;

import static io.gitfn.api.function.ConditionReason.CRASH_LOOPING;
import static io.gitfn.api.function.ConditionReason.DEPENDENCY_INSTALL_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_READY;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_WAITING;
import static io.gitfn.api.function.ConditionReason.JOB_FINISHED;
import static io.gitfn.api.function.ConditionReason.NO_BUILD_NEEDED;
import static io.gitfn.api.function.ConditionReason.PINNED_REVISION_UNKNOWN;
import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.GitRepositorySource;
import io.gitfn.api.function.GitRepositoryStatus;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.events.EventRecorder;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.Rollout.Release;
import io.gitfn.reconcile.cache.JobStatusItemStore;
import io.gitfn.reconcile.registry.RegistryLookup;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.Scaling;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs a Function: builds its image once per content key and rolls it out.
 *
 * <p>A pass goes as far as the world allows: {@link BuildPlanner} works out the key and image,
 * {@link FunctionBuilds} finds or makes the image, and the workflow of dependents applies the Deployment (only
 * once an image is known good), the Service, and the HPA (only while scaleConfig leaves room to scale). A Job or
 * Deployment that moves, a Git source that moves and a build slot that frees up each wake the Function through an
 * event source, so nothing polls. Status is written once, at the end of the pass.
 *
 * <p>A Function pinned with {@code gitfn.io/pinned-revision} runs the image its history has for that revision,
 * whatever its spec's source says, until the annotation goes.
 */
@Workflow(explicitInvocation = true, dependents = {
    @Dependent(name = "deployment", type = FunctionDeployment.class,
        reconcilePrecondition = FunctionDeployment.HasRelease.class),
    @Dependent(name = "service", type = FunctionService.class),
    @Dependent(name = "hpa", type = FunctionHpa.class, reconcilePrecondition = FunctionHpa.RoomToScale.class)})
public final class FunctionReconciler implements Reconciler<Function>, Cleaner<Function> {

  static final String KIND = "Function";
  // A safety net only: the informers on Jobs and Deployments wake the Function when they change.
  private static final Duration WAITING = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final WorkloadSettings workloads;
  private final Clock clock;
  private final EventRecorder events;
  private final BuildPlanner planner;
  private final FunctionBuilds builds;
  private final BuildlessSources buildless;
  private final BuildSettings buildSettings;
  private final FunctionProgressBoard progress;
  private final AutoRollbacks rollbacks;
  private final ForgeReports forge;
  private final ShardSelector shard;
  private final SimpleInboundEventSource<Function> wakeUps = new SimpleInboundEventSource<>("function-wake-ups");
  private volatile IndexerResourceCache<Function> cache;
  private volatile EventSource<Job, Function> jobs;
  // The workflow's dependent owns the Deployment informer; the first pass hands it to the dashboard.
  private volatile EventSource<Deployment, Function> deployments;

  /**
   * @param progress where each pass reports how far its Function is, so that its FunctionRepository's readiness
   *     follows without watching Functions itself
   */
  FunctionReconciler(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors,
      BuildSettings buildSettings, BuildQueue queue, WorkloadSettings workloads, ControllerSettings settings,
      Clock clock, io.micrometer.core.instrument.MeterRegistry meters, FunctionProgressBoard progress,
      ForgeReports forge) {
    this.client = client;
    this.progress = progress;
    this.shard = settings.shard();
    this.rollbacks = new AutoRollbacks(settings.autoRollback(), clock, meters);
    this.forge = forge;
    forge.onAnswer(KIND, wakeUps::propagateEvent);
    this.workloads = workloads;
    this.clock = clock;
    this.events = new EventRecorder(client, clock, settings.instance());
    this.planner = new BuildPlanner(client, watcher, mirrors, buildSettings, settings, clock,
        id -> wake(id.namespace(), id.name()));
    this.builds = new FunctionBuilds(client, buildSettings, queue, new RegistryLookup(settings.registryLookup()),
        fn -> wake(fn.getMetadata().getNamespace(), fn.getMetadata().getName()), meters);
    this.buildless = new BuildlessSources(client, buildSettings);
    this.buildSettings = buildSettings;
  }

  /** Every Function in this controller's informer cache; none before the controller started. */
  java.util.Collection<Function> cached() {
    IndexerResourceCache<Function> current = cache;
    return current == null ? List.of() : current.list().toList();
  }

  /** The Function's Deployment in this controller's informer cache. */
  Optional<Deployment> cachedDeployment(Function fn) {
    EventSource<Deployment, Function> current = deployments;
    return current == null ? Optional.empty() : current.getSecondaryResource(fn);
  }

  /** The Function's build Jobs in this controller's informer cache: metadata and status. */
  java.util.Collection<Job> cachedJobs(Function fn) {
    EventSource<Job, Function> current = jobs;
    return current == null ? List.of() : current.getSecondaryResources(fn);
  }

  @Override
  public List<EventSource<?, Function>> prepareEventSources(EventSourceContext<Function> context) {
    cache = context.getPrimaryCache();
    // The dependents bring their own informers; Jobs are not dependents, since a pass may keep several.
    InformerEventSource<Job, Function> jobInformer = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Job.class, Function.class)
        .withName("job")
        .withLabelSelector(ChildInformers.selector(shard))
        .withItemStore(new JobStatusItemStore())
        .withInformerListLimit(Controller.LIST_PAGE)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Function.class))
        .build(), context);
    jobs = jobInformer;
    return List.of(jobInformer, wakeUps);
  }

  /** Reconciles a Function now: its Git source moved, or a build slot was handed to it. */
  private void wake(String namespace, String name) {
    wakeUps.propagateEvent(new ResourceID(name, namespace));
  }

  @Override
  public UpdateControl<Function> reconcile(Function fn, Context<Function> context) {
    if (deployments == null) {
      deployments = context.eventSourceRetriever().getEventSourceFor(Deployment.class);
    }
    FunctionPass pass = new FunctionPass(fn, clock, client.getKubernetesSerialization());
    Set<Job> jobs = context.getSecondaryResources(Job.class);
    Optional<FunctionBuildPlan> build = planner.plan(fn, pass);
    String pin = pinnedRevision(fn);
    pass.status().setPinnedRevision(pin);
    // The plan is empty when the spec, its build-mode annotation included, breaks a rule.
    boolean buildlessMode = build.isPresent() && buildSettings.modeOf(fn) == BuildMode.BUILDLESS;
    Optional<Release> desired = pin != null ? pinned(fn, pin, pass)
        : buildlessMode ? buildless.ensure(fn, build.get(), pass)
        : build.filter(b -> builds.ensure(fn, b, jobs, pass)).map(b -> new Release(b.key(), b.image()));
    // The pin wins over a rollback, which waits, as it was, until the pin goes.
    Optional<Release> release = pin != null ? desired
        : rollbacks.hold(fn, desiredKey(desired, build), desired, pass, entry -> buildless.pinned(fn, entry));
    AutoRollback holding = pin == null ? pass.status().getRollback() : null;
    new Rollout(release, workloads, buildSettings).handTo(context);
    context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    release.ifPresent(r -> recordRelease(r, pass));
    boolean rolledOut = reportRunning(context, pass);
    if (holding != null) {
      AutoRollbacks.report(fn, holding, rolledOut, pass);
    } else if (pin == null && release.isPresent() && rollbacks.appliesTo(fn)) {
      rollbacks.check(fn, release.get(), pass);
    }
    if (rolledOut) {
      release.ifPresent(r -> pass.markRolledOut(r.key()));
    }
    if (rolledOut && release.isPresent() && build.isPresent() && pin == null) {
      builds.cleanUp(jobs, release.get().key());
    }
    if (rolledOut && release.isPresent() && (buildlessMode || release.get().buildless())) {
      buildless.collect(fn, history(pass), release.get().key());
    }
    reconcileCommitStatus(fn, pass);
    UpdateControl<Function> control = pass.finish(events);
    progress.report(pass.progressBefore(), pass.progress(), repositoryOf(fn));
    return control;
  }

  /** The {@code gitfn.io/repository} label: which FunctionRepository applied this Function, if one did. */
  private static String repositoryOf(Function fn) {
    return fn.getMetadata().getLabels() == null ? null : fn.getMetadata().getLabels().get(Labels.REPOSITORY);
  }

  /**
   * The content key the spec asks for: its release's (a buildless release derives its own key from the plan's), or
   * the plan's while the image is still being built.
   */
  private static Optional<ContentKey> desiredKey(Optional<Release> desired, Optional<FunctionBuildPlan> build) {
    return desired.map(Release::key).or(() -> build.map(FunctionBuildPlan::key));
  }

  private static List<FunctionHistoryEntry> history(FunctionPass pass) {
    return pass.status().getHistory() == null ? List.of() : pass.status().getHistory();
  }

  /**
   * For a Git source with {@code gitfn.io/commit-status-secret}: tells the forge how the commit the Function is on
   * is doing (pending while it builds and rolls out, success once it runs, failure with the reason), and shows in
   * {@code status.commitStatus} how the forge took it. A pinned Function reports nothing: it runs another commit.
   */
  private void reconcileCommitStatus(Function fn, FunctionPass pass) {
    String namespace = fn.getMetadata().getNamespace();
    String name = fn.getMetadata().getName();
    Optional<String> secret = Annotations.get(fn, Annotations.COMMIT_STATUS_SECRET).map(String::strip);
    GitRepositorySource git = fn.getSpec().getSource() == null ? null : fn.getSpec().getSource().getGitRepository();
    if (secret.isEmpty() || git == null) {
      forge.forgetStatus(KIND, namespace, name);
      pass.status().setCommitStatus(null);
      return;
    }
    ForgeReports.Target target = new ForgeReports.Target(KIND, namespace, name, git.getUrl(), secret.get(),
        "annotation " + Annotations.COMMIT_STATUS_SECRET, Annotations.get(fn, Annotations.COMMIT_STATUS_FORGE)
        .orElse(null), Annotations.get(fn, Annotations.COMMIT_STATUS_API_URL).orElse(null));
    forge.report(target, verdict(pass), pass.status().getCommitStatus())
        .ifPresent(report -> pass.status().setCommitStatus(report));
  }

  private static Optional<ForgeReports.Verdict> verdict(FunctionPass pass) {
    GitRepositoryStatus at = pass.status().getGitRepository();
    FunctionProgress progress = pass.progressNow();
    if (at == null || at.getCommit() == null || progress.phase() == FunctionProgress.Phase.PINNED) {
      return Optional.empty();
    }
    Revision revision;
    try {
      revision = new Revision(at.getReference(), at.getCommit());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of(switch (progress.phase()) {
      case RUNNING -> new ForgeReports.Verdict(revision, CommitState.SUCCESS, progress.reason(), "runs");
      case FAILED -> new ForgeReports.Verdict(revision, CommitState.FAILURE, progress.reason(), progress.reason()
          + ": " + progress.message());
      default -> new ForgeReports.Verdict(revision, CommitState.PENDING, progress.reason(),
          "building and rolling out");
    });
  }

  @Override
  public DeleteControl cleanup(Function fn, Context<Function> context) {
    forge.forget(KIND, fn.getMetadata().getNamespace(), fn.getMetadata().getName());
    planner.untrack(fn);
    builds.forget(fn);
    progress.forget(fn.getMetadata().getNamespace(), fn.getMetadata().getName(), repositoryOf(fn));
    return DeleteControl.defaultDelete(); // the children go with their owner
  }

  private static String pinnedRevision(Function fn) {
    Map<String, String> annotations = fn.getMetadata().getAnnotations();
    String revision = annotations == null ? null : annotations.get(Annotations.PINNED_REVISION);
    return revision == null || revision.isBlank() ? null : revision.strip();
  }

  /**
   * The image of the revision the Function is pinned to, when it is. A pin to a revision with no known-good image
   * in the history sets ConfigurationReady False, and the Function keeps running what it runs.
   */
  private Optional<Release> pinned(Function fn, String revision, FunctionPass pass) {
    Optional<FunctionHistoryEntry> entry = pass.knownGood(revision);
    if (entry.isEmpty()) {
      pass.condition(CONFIGURATION_READY, "False", PINNED_REVISION_UNKNOWN, "pinned to " + revision
          + ", which has no built image in status.history; unpin with `gitfn rollback function "
          + fn.getMetadata().getName() + " --unpin`");
      return Optional.empty();
    }
    pass.revision(revision);
    Release release = buildless.pinned(fn, entry.get());
    String runs = release.buildless() ? "image " + release.image() + " with the source of ConfigMap "
        + release.sourceConfigMap() : "image " + release.image();
    pass.condition(BUILD_READY, "True", release.buildless() ? NO_BUILD_NEEDED : JOB_FINISHED, "pinned to "
        + revision + ": " + runs + " runs until `gitfn rollback function " + fn.getMetadata().getName()
        + " --unpin`");
    return Optional.of(release);
  }

  /** The history notes a release that runs an earlier image again: a revert or a pin. */
  private static void recordRelease(Release release, FunctionPass pass) {
    if (!pass.newestIs(release.key())) {
      pass.record(release.key(), release.image(), FunctionPass.REUSED);
    }
    pass.status().setImage(release.image());
  }

  /** Sets Running from the Deployment, whatever image it runs; returns true once it has rolled out. */
  private boolean reportRunning(Context<Function> context, FunctionPass pass) {
    Optional<Deployment> found = context.getSecondaryResource(Deployment.class);
    if (found.isEmpty()) {
      pass.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, "waiting for the first image");
      return false;
    }
    Deployment deployment = found.get();
    String name = "Deployment " + deployment.getMetadata().getName();
    boolean rolledOut = rolledOut(deployment);
    Optional<DeploymentCondition> stalled = stalled(deployment);
    // Pods are not watched: the Deployment does not change while its new Pod crash-loops, so look again soon.
    List<Pod> pods = rolledOut ? List.of() : NewPods.of(client, deployment);
    Optional<String> installFailed = NewPods.installFailure(deployment, pods);
    Optional<String> crashLoop = NewPods.crashLoop(deployment, pods);
    if (rolledOut) {
      pass.condition(RUNNING, "True", DEPLOYMENT_READY, available(context.getPrimaryResource(), deployment));
    } else if (installFailed.isPresent()) {
      // Before the progress deadline: past it, the cause is still the install, which is what to fix.
      pass.condition(RUNNING, "False", DEPENDENCY_INSTALL_FAILED, name + " is not rolled out: "
          + installFailed.get() + ". The Pods of its previous version, if any, keep serving.");
      pass.retryWithin(WAITING);
    } else if (crashLoop.isPresent()) {
      pass.condition(RUNNING, "False", CRASH_LOOPING, name + " is not rolled out: " + crashLoop.get()
          + ". The Pods of its previous version, if any, keep serving.");
      pass.retryWithin(WAITING);
    } else if (stalled.isPresent()) {
      // The Deployment controller gave up waiting; its next change (a new image, Pods turning Ready) wakes us.
      pass.condition(RUNNING, "False", DEPLOYMENT_FAILED, name + " has not rolled out within its progress deadline of "
          + deployment.getSpec().getProgressDeadlineSeconds() + " s: " + stalled.get().getMessage()
          + ". The Pods of its previous ReplicaSet, if any, keep serving; `kubectl describe` its new Pods for why"
          + " they are not Ready.");
    } else {
      pass.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, name + " is rolling out"
          + NewPods.whyNotReady(deployment, pods).map(why -> ": " + why).orElse(""));
      pass.retryWithin(WAITING);
    }
    DeploymentStatus status = deployment.getStatus();
    pass.status().setReplicas(status == null || status.getReplicas() == null ? 0 : status.getReplicas());
    pass.status().setPodSelector(deployment.getSpec().getSelector().getMatchLabels().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining(",")));
    // What the Pods run with, read from the template rather than recomputed, as Kyma reports it.
    PodTemplateSpec template = deployment.getSpec().getTemplate();
    Map<String, String> annotations = template.getMetadata() == null ? null : template.getMetadata().getAnnotations();
    pass.status().setFunctionAnnotations(annotations == null || annotations.isEmpty() ? null : annotations);
    pass.status().setPodSecurityContext(template.getSpec().getSecurityContext());
    pass.status().setContainerSecurityContext(template.getSpec().getContainers().stream()
        .filter(c -> DesiredDeployment.CONTAINER.equals(c.getName())).findFirst()
        .map(Container::getSecurityContext).orElse(null));
    return rolledOut;
  }

  /**
   * Running's message once the Deployment has rolled out. It says when nothing runs because {@code spec.replicas}
   * is 0 (an external scaler such as KEDA idles a Function that way), and when scaleConfig's HPA scales the
   * Function: Kyma deprecated scaleConfig and no longer creates that HPA, gitfn still does, and says so here.
   */
  static String available(Function fn, Deployment deployment) {
    String name = "Deployment " + deployment.getMetadata().getName();
    boolean zero = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1) == 0;
    String message = zero ? name + " is scaled to 0: spec.replicas is 0, so no Pod runs until it is raised"
        : name + " is available";
    if (!Scaling.hasAutoscaler(fn)) {
      return message;
    }
    ScaleConfig scale = fn.getSpec().getScaleConfig();
    return message + "; HorizontalPodAutoscaler " + fn.getMetadata().getName() + (zero
        ? " does not act while the Function is at 0" : " scales it between " + scale.getMinReplicas() + " and "
        + scale.getMaxReplicas() + " on CPU") + " (scaleConfig: Kyma deprecated it and no longer creates an HPA"
        + " from it; gitfn still does)";
  }

  /** The Deployment controller's verdict that the current rollout stopped progressing, if it gave one. */
  static Optional<DeploymentCondition> stalled(Deployment deployment) {
    DeploymentStatus status = deployment.getStatus();
    if (status == null || status.getConditions() == null || status.getObservedGeneration() == null
        || status.getObservedGeneration() < deployment.getMetadata().getGeneration()) {
      return Optional.empty();
    }
    return status.getConditions().stream()
        .filter(c -> "Progressing".equals(c.getType()) && "False".equals(c.getStatus())
            && "ProgressDeadlineExceeded".equals(c.getReason()))
        .findFirst();
  }

  /** All desired replicas run the current template and are available, and no old Pod is left. */
  static boolean rolledOut(Deployment deployment) {
    DeploymentStatus status = deployment.getStatus();
    if (status == null || status.getObservedGeneration() == null
        || status.getObservedGeneration() < deployment.getMetadata().getGeneration()) {
      return false;
    }
    int desired = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
    return count(status.getUpdatedReplicas()) >= desired
        && count(status.getReplicas()) == count(status.getUpdatedReplicas())
        && count(status.getAvailableReplicas()) >= desired;
  }

  private static int count(Integer value) {
    return value == null ? 0 : value;
  }

}
