package io.gitfn.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.gitfn.api.function.Function;
import io.gitfn.reconcile.ShardSelector;
import io.gitfn.reconcile.function.FunctionDeployment;
import io.gitfn.reconcile.function.FunctionHpa;
import io.gitfn.reconcile.function.FunctionService;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResourceConfig;

/**
 * The informers of a Function's children (Deployments, Services, HPAs), narrowed to this shard. Children carry their
 * Function's labels ({@code ChildLabels.ofFunction}), shard label included, so a sharded instance selects its shard
 * on them as on Functions: another shard's children never reach its caches, and its memory follows its own share of
 * the Functions, not all of them.
 */
final class ChildInformers {

  private ChildInformers() {}

  /**
   * The Function controller's dependents, declared with {@link ShardSelector#childSelector} in place of their
   * annotations' own.
   */
  static ControllerConfigurationOverrider<Function> narrow(ControllerConfigurationOverrider<Function> overrider,
      ShardSelector shard) {
    if (shard.isAll()) {
      return overrider;
    }
    return overrider
        .replacingNamedDependentResourceConfig("deployment", config(Deployment.class, FunctionDeployment.class, shard))
        .replacingNamedDependentResourceConfig("service", config(Service.class, FunctionService.class, shard))
        .replacingNamedDependentResourceConfig("hpa", config(HorizontalPodAutoscaler.class, FunctionHpa.class, shard));
  }

  private static <R extends HasMetadata> KubernetesDependentResourceConfig<R> config(Class<R> kind,
      Class<?> dependent, ShardSelector shard) {
    KubernetesDependent declared = dependent.getAnnotation(KubernetesDependent.class);
    InformerConfiguration<R> informer = InformerConfiguration.builder(kind)
        .initFromAnnotation(declared.informer(), dependent.getName())
        .withLabelSelector(shard.childSelector())
        .build();
    // Not create-only: a child made before its Function carried the shard label is not in this cache, so the SDK
    // "creates" it, and that must be an apply that adopts the object, not a create refused with 409.
    return new KubernetesDependentResourceConfig<>(null, false, informer);
  }
}
