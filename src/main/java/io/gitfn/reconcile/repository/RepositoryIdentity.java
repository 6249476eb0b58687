package io.gitfn.reconcile.repository;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.gitfn.api.repository.FunctionRepository;
import java.util.Optional;

/**
 * Who writes a FunctionRepository's revision: the ServiceAccount its {@code spec.serviceAccountName} names, in its own
 * namespace, impersonated as Flux's kustomize-controller does (the user {@code system:serviceaccount:<ns>:<name>}, so
 * that the RoleBindings of that ServiceAccount decide); or, without one, the controller itself.
 *
 * <p>An impersonating client shares the controller's HTTP client and connections; only the headers of its requests
 * differ. It is made for each pass and never closed, as closing it would close the shared one.
 */
final class RepositoryIdentity {

  private final KubernetesClient controller;

  RepositoryIdentity(KubernetesClient controller) {
    this.controller = controller;
  }

  /** The controller's own client, for what the controller checks with its own rights. */
  KubernetesClient controller() {
    return controller;
  }

  /** The ServiceAccount {@code repository} applies as, if it names one. */
  static Optional<String> serviceAccount(FunctionRepository repository) {
    return Optional.ofNullable(repository.getSpec().getServiceAccountName()).filter(name -> !name.isBlank());
  }

  /** The user the API server sees for {@code repository}'s writes, as its messages name it. */
  static String user(FunctionRepository repository) {
    return serviceAccount(repository).map(name -> "system:serviceaccount:" + repository.getMetadata().getNamespace()
        + ":" + name).orElse("the controller");
  }

  /** The client that reads and writes for {@code repository}. */
  KubernetesClient clientFor(FunctionRepository repository) {
    Optional<String> account = serviceAccount(repository);
    if (account.isEmpty()) {
      return controller;
    }
    RequestConfig impersonating = new RequestConfigBuilder(controller.getConfiguration().getRequestConfig())
        .withImpersonateUsername(user(repository))
        .withImpersonateGroups()
        .build();
    return controller.newClient(impersonating).adapt(KubernetesClient.class);
  }
}
