package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.manifest.ObjectType;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What applying a folder's objects of one kind beside its Functions (ConfigMaps, routes) would change in the
 * repository's namespace, found as the controller finds it ({@code RepositoryObjects} in {@code io.gitfn.reconcile.sync}):
 * each is read by name, never listed; one that a FunctionRepository did not make, or another one made, would make the
 * controller refuse the revision; the object it applies ({@link FunctionSync#appliedObject}) is server-side applied
 * with {@code dryRun=All} as field manager {@code gitfn}; and the ones pruned are those the repository's status names
 * that the folder no longer has.
 */
final class KindDiffs {

  private final MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> objects;
  private final ObjectType type;
  private final ObjectDiff view;
  private final String namespace;

  KindDiffs(KubernetesClient client, String namespace, ObjectType type, ObjectDiff view) {
    this.objects = client.genericKubernetesResources(type.apiVersion(), type.kind());
    this.type = type;
    this.view = view;
    this.namespace = namespace;
  }

  /** What the diff shows, and the objects that would make the controller refuse the revision. */
  record Result(String diff, List<String> refusals) {}

  /**
   * Compares {@code desired} (already in this namespace) with the cluster.
   *
   * @param owning the FunctionRepository that would apply them, or null: each then keeps the repository label it has
   * @param owned the names of this kind the repository's status says it applied: those not desired are pruned
   * @throws CommandException when the API server would refuse one
   */
  Result compare(List<? extends HasMetadata> desired, FunctionRepository owning, Revision revision,
      Collection<String> owned) {
    String owner = owning == null ? null
        : Labels.repository(owning.getMetadata().getNamespace(), owning.getMetadata().getName());
    StringBuilder diff = new StringBuilder();
    List<String> refusals = new ArrayList<>();
    Set<String> declared = new TreeSet<>();
    for (HasMetadata object : desired) {
      String name = object.getMetadata().getName();
      String key = namespace + "/" + name;
      declared.add(name);
      GenericKubernetesResource live = objects.inNamespace(namespace).withName(name).get();
      String label = live == null ? null
          : Objects.requireNonNullElse(live.getMetadata().getLabels(), Map.<String, String>of()).get(Labels.REPOSITORY);
      if (live != null && (label == null || (owner != null && !owner.equals(label)))) {
        refusals.add(type.kind() + " " + key + " exists and " + (label == null
            ? "was not made by a FunctionRepository" : "belongs to FunctionRepository " + label)
            + "; the controller does not take it over and would refuse the revision: delete it, or rename the "
            + type.kind() + " in the folder");
        continue;
      }
      GenericKubernetesResource after = dryRun(key, FunctionSync.appliedObject(object, type, namespace,
          owner != null ? owner : label, revision));
      diff.append(live == null ? view.added(key, after) : view.changed(key, live, after));
    }
    if (owning != null && DiffCommand.prunes(owning)) {
      for (String name : new TreeSet<>(owned)) {
        GenericKubernetesResource live = declared.contains(name) ? null
            : objects.inNamespace(namespace).withName(name).get();
        if (live != null) {
          diff.append(view.removed(namespace + "/" + name, live));
        }
      }
    }
    return new Result(diff.toString(), refusals);
  }

  private GenericKubernetesResource dryRun(String key, GenericKubernetesResource applied) {
    try {
      return objects.inNamespace(namespace).resource(applied).dryRun().fieldManager(FieldManagers.SYNC)
          .forceConflicts().serverSideApply();
    } catch (KubernetesClientException e) {
      throw new CommandException(type.kind() + " " + key + " would be refused: "
          + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage()));
    }
  }
}
