package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.controller.cache.ListPages;
import io.gitfn.controller.cache.OwnFieldsItemStore;
import io.gitfn.workload.DesiredHpa;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * The Function's HorizontalPodAutoscaler, scaling the Function itself (its scale subresource). It exists only while
 * scaleConfig leaves room to scale; the workflow deletes it when min and max meet.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_BY + "=" + Labels.MANAGER,
    itemStore = OwnFieldsItemStore.class, informerListLimit = ListPages.SIZE))
public final class FunctionHpa extends CRUDKubernetesDependentResource<HorizontalPodAutoscaler, Function> {

  public FunctionHpa() {
    super(HorizontalPodAutoscaler.class);
  }

  @Override
  protected HorizontalPodAutoscaler desired(Function fn, Context<Function> context) {
    return DesiredHpa.forFunction(fn, Rollout.of(context).settings()).orElseThrow();
  }

  /** Reconcile the HPA only when scaleConfig's min and max differ. */
  public static final class RoomToScale implements Condition<HorizontalPodAutoscaler, Function> {
    @Override
    public boolean isMet(DependentResource<HorizontalPodAutoscaler, Function> dependent, Function fn,
        Context<Function> context) {
      return DesiredHpa.forFunction(fn, Rollout.of(context).settings()).isPresent();
    }
  }
}
