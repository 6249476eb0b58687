package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.manifest.ObjectType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the cluster serves each kind a revision declares, as a namespaced kind: an APIRule where Kyma's API Gateway
 * is not installed, or a cluster-scoped kind a platform team allowed by mistake, refuses the revision at the first
 * file that declares one, before anything is written. Asked of the API server's discovery at each sync, which every
 * authenticated identity may read; a kind installed later is then found by the next sync, with no restart.
 */
final class ServedKinds {

  private final KubernetesClient client;

  ServedKinds(KubernetesClient client) {
    this.client = client;
  }

  /** Why the declared objects cannot be applied to this cluster; empty when every kind is served and namespaced. */
  List<String> refusals(Map<ObjectType, Declared<GenericKubernetesResource>> objects) {
    List<String> refusals = new ArrayList<>();
    objects.forEach((type, declared) -> {
      if (declared.desired().isEmpty()) {
        return;
      }
      String first = declared.desired().get(0).getMetadata().getName();
      String at = declared.shown(first) + type.kind() + " (" + type.apiVersion() + ")";
      Optional<APIResource> served = served(type);
      if (served.isEmpty()) {
        refusals.add(at + " is not served by this cluster (no CustomResourceDefinition installs it): install the API"
            + " it belongs to, or take the " + type.kind() + " out of Git");
      } else if (!Boolean.TRUE.equals(served.get().getNamespaced())) {
        refusals.add(at + " is cluster-scoped; a FunctionRepository applies objects of its own namespace only");
      }
    });
    return refusals;
  }

  private Optional<APIResource> served(ObjectType type) {
    APIResourceList resources;
    try {
      resources = client.getApiResources(type.apiVersion());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw new SyncFailedException("cannot tell whether the cluster serves " + type + ": " + ApiErrors.message(e),
          SyncResult.nothingDone(), e);
    }
    if (resources == null || resources.getResources() == null) {
      return Optional.empty();
    }
    return resources.getResources().stream()
        .filter(resource -> type.kind().equals(resource.getKind()) && !resource.getName().contains("/"))
        .findFirst();
  }
}
