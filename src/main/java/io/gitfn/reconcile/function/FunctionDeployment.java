package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.controller.cache.ListPages;
import io.gitfn.controller.cache.OwnFieldsItemStore;
import io.gitfn.workload.DesiredDeployment;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.Updater;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.Set;

/**
 * The Function's Deployment, running the pass's release. It is never deleted by the workflow: while a pass has no
 * known-good image (a build runs or failed), the Deployment keeps running the last one; Kubernetes collects it
 * with its Function.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_BY + "=" + Labels.MANAGER,
    itemStore = OwnFieldsItemStore.class, informerListLimit = ListPages.SIZE))
public final class FunctionDeployment extends KubernetesDependentResource<Deployment, Function>
    implements Creator<Deployment, Function>, Updater<Deployment, Function>, SecondaryToPrimaryMapper<Deployment> {

  private static final SecondaryToPrimaryMapper<Deployment> OWNER = Mappers.fromOwnerReferences(Function.class);

  public FunctionDeployment() {
    super(Deployment.class);
  }

  @Override
  protected Deployment desired(Function fn, Context<Function> context) {
    Rollout rollout = Rollout.of(context);
    Rollout.Release release = rollout.release().orElseThrow();
    return release.buildless()
        ? BuildlessDeployment.forFunction(fn, release.sourceConfigMap(), rollout.builds(), rollout.settings())
        : DesiredDeployment.forFunction(fn, release.image(), rollout.settings());
  }

  @Override
  protected boolean addOwnerReference() {
    return true; // the builder sets the same reference; without this the SDK would add annotations instead
  }

  // A dependent the SDK may not delete maps back to its owner by annotations, unless it says otherwise.
  @Override
  public Set<ResourceID> toPrimaryResourceIDs(Deployment deployment) {
    return OWNER.toPrimaryResourceIDs(deployment);
  }

  /** Reconcile the Deployment only when the pass has an image known to be good. */
  public static final class HasRelease implements Condition<Deployment, Function> {
    @Override
    public boolean isMet(DependentResource<Deployment, Function> dependent, Function fn, Context<Function> context) {
      return Rollout.of(context).release().isPresent();
    }
  }
}
