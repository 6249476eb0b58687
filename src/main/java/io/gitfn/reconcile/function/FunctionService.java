package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.Service;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.controller.cache.ListPages;
import io.gitfn.controller.cache.OwnFieldsItemStore;
import io.gitfn.workload.DesiredService;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** The Function's Service, port 80 to the runtime's 8080, named after the Function. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_BY + "=" + Labels.MANAGER,
    itemStore = OwnFieldsItemStore.class, informerListLimit = ListPages.SIZE))
public final class FunctionService extends CRUDKubernetesDependentResource<Service, Function> {

  public FunctionService() {
    super(Service.class);
  }

  @Override
  protected Service desired(Function fn, Context<Function> context) {
    return DesiredService.forFunction(fn);
  }
}
