package io.gitfn.reconcile;

import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_READY;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_WAITING;
import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.JOB_FAILED;
import static io.gitfn.api.function.ConditionReason.JOB_FINISHED;
import static io.gitfn.api.function.ConditionReason.JOB_RUNNING;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATED;
import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildContext;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.ContextConfigMapSpec;
import io.gitfn.workload.DeploymentSpec;
import io.gitfn.workload.HpaSpec;
import io.gitfn.workload.Labels;
import io.gitfn.workload.ServiceSpec;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs a Function with an inline source: builds its image once per content key and rolls it out.
 *
 * <p>A pass goes as far as the world allows: {@link #configure} works out the key and image, {@link #ensureBuild}
 * finds or makes the image, and once the image is known good {@link #rollOut} applies the Deployment, Service and
 * HPA. A Job or Deployment that moves wakes the Function through its informers, so nothing polls.
 */
public final class FunctionReconciler implements Reconciler<Function> {

  static final String FIELD_MANAGER = "gitfn";
  // A safety net only: the informers on Jobs and Deployments wake the Function when they change.
  private static final Duration WAITING = Duration.ofSeconds(30);
  private static final String MANAGED = Labels.MANAGED_BY + "=" + Labels.MANAGER;

  private final KubernetesClient client;
  private final BuildSettings builds;
  private final WorkloadSettings workloads;
  private final Clock clock;
  private final EventRecorder events;

  public FunctionReconciler(KubernetesClient client, BuildSettings builds, WorkloadSettings workloads, Clock clock) {
    this.client = client;
    this.builds = builds;
    this.workloads = workloads;
    this.clock = clock;
    this.events = new EventRecorder(client, clock);
  }

  @Override
  public List<EventSource<?, Function>> prepareEventSources(EventSourceContext<Function> context) {
    return List.of(childInformer(Job.class, context), childInformer(Deployment.class, context));
  }

  private static <R extends HasMetadata> EventSource<R, Function> childInformer(Class<R> kind,
      EventSourceContext<Function> context) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(kind, Function.class)
        .withName(kind.getSimpleName().toLowerCase())
        .withLabelSelector(MANAGED)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Function.class))
        .build(), context);
  }

  @Override
  public UpdateControl<Function> reconcile(Function fn, Context<Function> context) {
    FunctionPass pass = new FunctionPass(fn, clock, client.getKubernetesSerialization());
    if (fn.getSpec().getSource() == null || fn.getSpec().getSource().getInline() == null) {
      return UpdateControl.noUpdate(); // Git sources are built by a later slice of this controller.
    }
    Optional<Build> build = configure(fn, pass);
    if (build.isPresent() && ensureBuild(fn, build.get(), pass)) {
      rollOut(fn, build.get(), pass);
    } else {
      reportRunning(fn, pass);
    }
    return pass.finish(events);
  }

  /** The content key, image and build context of a Function's current spec. */
  record Build(ContentKey key, String image, BuildContext context) {}

  /**
   * Works out what the spec asks to run. On success ConfigurationReady is True; a spec that can never build
   * (a context over the ConfigMap limit) sets it False with InvalidFunctionSpec and waits for a new spec.
   */
  private Optional<Build> configure(Function fn, FunctionPass pass) {
    ContentKey key = ContentKey.ofInline(fn, builds);
    try {
      BuildContext context = BuildContext.ofInline(fn, builds);
      pass.condition(CONFIGURATION_READY, "True", SOURCE_UPDATED, "content key " + key.tag());
      return Optional.of(new Build(key, BuildJobSpec.image(fn, key, builds), context));
    } catch (BuildContextTooLargeException e) {
      pass.condition(CONFIGURATION_READY, "False", INVALID_FUNCTION_SPEC, e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * Makes sure the image for the key exists; returns true when it does. A key with a Succeeded history entry or
   * a completed Job needs no build. Otherwise the context ConfigMap and the Job are created, BuildReady says how
   * the Job is doing, and a failed Job leaves the running Deployment as it is.
   */
  private boolean ensureBuild(Function fn, Build build, FunctionPass pass) {
    String built = "image " + build.image() + " is built";
    if (pass.knownGood(build.key())) {
      pass.condition(BUILD_READY, "True", JOB_FINISHED, built);
      return true;
    }
    Job job = startBuild(fn, build);
    if (succeeded(job)) {
      pass.condition(BUILD_READY, "True", JOB_FINISHED, built);
      pass.record(build.key(), build.image(), FunctionPass.SUCCEEDED);
      return true;
    }
    if (failed(job)) {
      String why = terminationMessage(job).map(m -> ": " + m).orElse("");
      pass.condition(BUILD_READY, "False", JOB_FAILED, "Job " + job.getMetadata().getName() + " failed" + why
          + "; the running version stays");
      pass.record(build.key(), build.image(), FunctionPass.FAILED);
      return false;
    }
    pass.condition(BUILD_READY, "Unknown", JOB_RUNNING, "Job " + job.getMetadata().getName() + " builds "
        + build.image());
    pass.retryWithin(WAITING);
    return false;
  }

  /** The build Job for the key: the one already there (its name is deterministic), or a new one. */
  private Job startBuild(Function fn, Build build) {
    String name = BuildJobSpec.name(fn, build.key());
    Job existing = client.batch().v1().jobs().inNamespace(fn.getMetadata().getNamespace()).withName(name).get();
    if (existing != null) {
      return existing;
    }
    apply(ContextConfigMapSpec.forFunction(fn, build.key(), build.context()));
    return apply(BuildJobSpec.forFunction(fn, build.key(), name, builds));
  }

  /**
   * Applies the Deployment, Service and HPA for the built image, and sets Running from the Deployment.
   */
  private void rollOut(Function fn, Build build, FunctionPass pass) {
    Deployment deployment = apply(DeploymentSpec.forFunction(fn, build.image(), workloads));
    apply(ServiceSpec.forFunction(fn));
    Optional<HorizontalPodAutoscaler> hpa = HpaSpec.forFunction(fn, workloads);
    if (hpa.isPresent()) {
      apply(hpa.get());
    } else {
      deleteStaleHpa(fn);
    }
    if (!pass.newestIs(build.key())) {
      pass.record(build.key(), build.image(), FunctionPass.REUSED); // a revert: an earlier image runs again
    }
    pass.status().setImage(build.image());
    report(deployment, pass);
  }

  private void deleteStaleHpa(Function fn) {
    var hpas = client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(fn.getMetadata().getNamespace());
    HorizontalPodAutoscaler stale = hpas.withName(fn.getMetadata().getName()).get();
    if (stale != null && ownedBy(stale, fn)) {
      hpas.resource(stale).delete();
    }
  }

  /** Without a rollout this pass, Running still follows whatever Deployment runs. */
  private void reportRunning(Function fn, FunctionPass pass) {
    Deployment deployment = client.apps().deployments().inNamespace(fn.getMetadata().getNamespace())
        .withName(fn.getMetadata().getName()).get();
    if (deployment == null) {
      pass.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, "waiting for the first image");
    } else {
      report(deployment, pass);
    }
  }

  private void report(Deployment deployment, FunctionPass pass) {
    String name = "Deployment " + deployment.getMetadata().getName();
    if (rolledOut(deployment)) {
      pass.condition(RUNNING, "True", DEPLOYMENT_READY, name + " is available");
    } else {
      pass.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, name + " is rolling out");
      pass.retryWithin(WAITING);
    }
    DeploymentStatus status = deployment.getStatus();
    pass.status().setReplicas(status == null || status.getReplicas() == null ? 0 : status.getReplicas());
    pass.status().setPodSelector(deployment.getSpec().getSelector().getMatchLabels().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining(",")));
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

  private static boolean succeeded(Job job) {
    return job.getStatus() != null && count(job.getStatus().getSucceeded()) > 0;
  }

  private static boolean failed(Job job) {
    return job.getStatus() != null && count(job.getStatus().getFailed()) > 0;
  }

  private Optional<String> terminationMessage(Job job) {
    List<Pod> pods = client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel("job-name", job.getMetadata().getName()).list().getItems();
    return pods.stream()
        .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
        .flatMap(p -> p.getStatus().getContainerStatuses().stream())
        .map(ContainerStatus::getState)
        .filter(s -> s != null && s.getTerminated() != null)
        .map(s -> s.getTerminated())
        .map(ContainerStateTerminated::getMessage)
        .filter(m -> m != null && !m.isBlank())
        .map(String::strip)
        .findFirst();
  }

  private static boolean ownedBy(HasMetadata child, Function fn) {
    return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
        .anyMatch(o -> o.getUid().equals(fn.getMetadata().getUid()));
  }

  private <T extends HasMetadata> T apply(T desired) {
    return client.resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }
}
