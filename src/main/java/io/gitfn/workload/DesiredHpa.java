package io.gitfn.workload;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.gitfn.api.function.Function;
import java.util.Optional;

/** The HorizontalPodAutoscaler of a Function whose scaleConfig gives it room to scale. */
public final class DesiredHpa {

  private DesiredHpa() {
  }

  /**
   * An autoscaling/v2 HPA named after the Function, or empty when scaleConfig is absent or min equals max.
   *
   * <p>Like Kyma's (§2.5) it targets the Function through its scale subresource, not the Deployment: the
   * Function's {@code spec.replicas} then shows what the HPA chose, and the Deployment follows it.
   */
  public static Optional<HorizontalPodAutoscaler> forFunction(Function fn, WorkloadSettings settings) {
    if (!Scaling.hasAutoscaler(fn)) {
      return Optional.empty();
    }
    return Optional.of(new HorizontalPodAutoscalerBuilder()
        .withNewMetadata()
        .withName(fn.getMetadata().getName())
        .withNamespace(fn.getMetadata().getNamespace())
        .withLabels(ChildLabels.ofFunction(fn))
        .withOwnerReferences(Owner.of(fn))
        .endMetadata()
        .withNewSpec()
        .withNewScaleTargetRef()
        .withApiVersion(Function.GROUP + "/" + Function.VERSION)
        .withKind("Function")
        .withName(fn.getMetadata().getName())
        .endScaleTargetRef()
        .withMinReplicas(fn.getSpec().getScaleConfig().getMinReplicas())
        .withMaxReplicas(fn.getSpec().getScaleConfig().getMaxReplicas())
        .addNewMetric()
        .withType("Resource")
        .withNewResource()
        .withName("cpu")
        .withNewTarget().withType("Utilization")
        .withAverageUtilization(settings.targetCpuUtilizationPercentage()).endTarget()
        .endResource()
        .endMetric()
        .endSpec()
        .build());
  }
}
