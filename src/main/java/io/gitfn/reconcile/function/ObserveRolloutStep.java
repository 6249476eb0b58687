package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.CRASH_LOOPING;
import static io.gitfn.api.function.ConditionReason.DEPENDENCY_INSTALL_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_READY;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_WAITING;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.ScaleConfig;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.Scaling;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Says in Running how the Deployment rolls out, whatever image it runs: rolled out, rolling out (and what holds it
 * up, from its new Pods), or failed: a dependency install that failed, a Pod that crash-loops, or the progress
 * deadline passed. Pods are not watched, so while a rollout runs the Function is looked at again soon; the
 * Deployment informer wakes it on every other change. The status also shows what the Pods run with.
 */
final class ObserveRolloutStep implements FunctionStep {

  private final KubernetesClient client;

  ObserveRolloutStep(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    Optional<Deployment> found = state.context().getSecondaryResource(Deployment.class);
    if (found.isEmpty()) {
      state.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, "waiting for the first image");
      return Result.next();
    }
    Deployment deployment = found.get();
    String name = "Deployment " + deployment.getMetadata().getName();
    boolean rolledOut = rolledOut(deployment);
    Optional<DeploymentCondition> stalled = stalled(deployment);
    List<Pod> pods = rolledOut ? List.of() : NewPods.of(client, deployment);
    Optional<String> installFailed = NewPods.installFailure(deployment, pods);
    Optional<String> crashLoop = NewPods.crashLoop(deployment, pods);
    Result result = Result.next();
    if (rolledOut) {
      state.condition(RUNNING, "True", DEPLOYMENT_READY, available(state.fn(), deployment));
    } else if (installFailed.isPresent()) {
      // Before the progress deadline: past it, the cause is still the install, which is what to fix.
      state.condition(RUNNING, "False", DEPENDENCY_INSTALL_FAILED, name + " is not rolled out: "
          + installFailed.get() + ". The Pods of its previous version, if any, keep serving.");
      result = Result.within(Requeue.FUNCTION_WAITING);
    } else if (crashLoop.isPresent()) {
      state.condition(RUNNING, "False", CRASH_LOOPING, name + " is not rolled out: " + crashLoop.get()
          + ". The Pods of its previous version, if any, keep serving.");
      result = Result.within(Requeue.FUNCTION_WAITING);
    } else if (stalled.isPresent()) {
      // The Deployment controller gave up waiting; its next change (a new image, Pods turning Ready) wakes us.
      state.condition(RUNNING, "False", DEPLOYMENT_FAILED, name + " has not rolled out within its progress deadline"
          + " of " + deployment.getSpec().getProgressDeadlineSeconds() + " s: " + stalled.get().getMessage()
          + ". The Pods of its previous ReplicaSet, if any, keep serving; `kubectl describe` its new Pods for why"
          + " they are not Ready.");
    } else {
      state.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, name + " is rolling out"
          + NewPods.whyNotReady(deployment, pods).map(why -> ": " + why).orElse(""));
      result = Result.within(Requeue.FUNCTION_WAITING);
    }
    state.rolledOut(rolledOut);
    describe(state.status(), deployment);
    return result;
  }

  /** What the Pods run with, read from the template rather than recomputed, as Kyma reports it. */
  private static void describe(FunctionStatus status, Deployment deployment) {
    DeploymentStatus observed = deployment.getStatus();
    status.setReplicas(observed == null || observed.getReplicas() == null ? 0 : observed.getReplicas());
    status.setPodSelector(deployment.getSpec().getSelector().getMatchLabels().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining(",")));
    PodTemplateSpec template = deployment.getSpec().getTemplate();
    Map<String, String> annotations = template.getMetadata() == null ? null : template.getMetadata().getAnnotations();
    status.setFunctionAnnotations(annotations == null || annotations.isEmpty() ? null : annotations);
    status.setPodSecurityContext(template.getSpec().getSecurityContext());
    status.setContainerSecurityContext(template.getSpec().getContainers().stream()
        .filter(c -> DesiredDeployment.CONTAINER.equals(c.getName())).findFirst()
        .map(Container::getSecurityContext).orElse(null));
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
