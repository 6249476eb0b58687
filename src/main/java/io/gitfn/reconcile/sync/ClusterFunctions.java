package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import java.util.List;
import java.util.Optional;

/**
 * The Function calls a sync makes, as untyped objects: gitfn applies exactly the fields it builds, and compares
 * against everything the server holds, including fields its Java types do not know.
 */
final class ClusterFunctions {

  private static final ResourceDefinitionContext FUNCTIONS = ResourceDefinitionContext.fromResourceType(Function.class);

  private final MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      functions;

  ClusterFunctions(KubernetesClient client) {
    this.functions = client.genericKubernetesResources(FUNCTIONS);
  }

  List<GenericKubernetesResource> list(String namespace) {
    return functions.inNamespace(namespace).list().getItems();
  }

  /** The Functions of {@code namespace} that carry the repository label {@code owner}. */
  List<GenericKubernetesResource> listOwnedBy(String namespace, String owner) {
    return functions.inNamespace(namespace).withLabel(Labels.REPOSITORY, owner).list().getItems();
  }

  /** The Function of this key, if there is one. */
  Optional<GenericKubernetesResource> get(FunctionKey key) {
    return Optional.ofNullable(functions.inNamespace(key.namespace()).withName(key.name()).get());
  }

  /** A server-side apply as {@link FieldManagers#SYNC}, taking over fields others set; returns the result. */
  GenericKubernetesResource apply(GenericKubernetesResource object, boolean dryRun) {
    return functions
        .inNamespace(object.getMetadata().getNamespace())
        .resource(object)
        .dryRun(dryRun)
        .fieldManager(FieldManagers.SYNC)
        .forceConflicts()
        .serverSideApply();
  }

  void delete(FunctionKey key, boolean dryRun) {
    functions.inNamespace(key.namespace()).withName(key.name()).dryRun(dryRun).delete();
  }
}
