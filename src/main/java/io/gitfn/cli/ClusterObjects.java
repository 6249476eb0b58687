package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;

/** Reading gitfn's kinds the way kubectl reads: one by name, or all in a namespace or in every namespace. */
final class ClusterObjects {

  private ClusterObjects() {}

  /** The object, or a {@link CommandException} that names {@code kind} as kubectl does (lower case). */
  static <T extends HasMetadata> T one(KubernetesClient client, Class<T> type, String kind, String namespace,
      String name) {
    T object = client.resources(type).inNamespace(namespace).withName(name).get();
    if (object == null) {
      throw CommandException.notFound(kind, name, namespace);
    }
    return object;
  }

  static <T extends HasMetadata> List<T> all(KubernetesClient client, Class<T> type, String namespace,
      boolean allNamespaces) {
    List<T> items = allNamespaces ? client.resources(type).inAnyNamespace().list().getItems()
        : client.resources(type).inNamespace(namespace).list().getItems();
    return items.stream()
        .sorted(Comparator.comparing((T o) -> o.getMetadata().getNamespace()).thenComparing(o -> o.getMetadata().getName()))
        .toList();
  }

  /** kubectl's words for an empty listing, which go to stderr so that scripts read an empty stdout. */
  static String nothingFound(String namespace, boolean allNamespaces) {
    return allNamespaces ? "No resources found" : "No resources found in " + namespace + " namespace.";
  }
}
