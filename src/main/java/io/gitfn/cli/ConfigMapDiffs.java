package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.api.repository.AppliedConfigMap;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What applying a folder's ConfigMaps would change in the repository's namespace, found as the controller finds it
 * ({@code RepositoryObjects} in {@code io.gitfn.reconcile.sync}): each is read by name, never listed; one that a
 * FunctionRepository did not make, or another one made, would make the controller refuse the revision; the object
 * it applies (the repository's label, the revision's annotation, the ConfigMap's data) is server-side applied with
 * {@code dryRun=All} as field manager {@code gitfn}; and the ones pruned are those the repository's
 * {@code status.configMaps} names that the folder no longer has.
 */
final class ConfigMapDiffs {

  private static final ResourceDefinitionContext CONFIG_MAPS = ResourceDefinitionContext.fromResourceType(
      ConfigMap.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> configMaps;
  private final String namespace;

  ConfigMapDiffs(KubernetesClient client, String namespace) {
    this.configMaps = client.genericKubernetesResources(CONFIG_MAPS);
    this.namespace = namespace;
  }

  /** What the diff shows, and the ConfigMaps that would make the controller refuse the revision. */
  record Result(String diff, List<String> refusals) {}

  /**
   * Compares {@code desired} (already in this namespace) with the cluster.
   *
   * @param owning the FunctionRepository that would apply them, or null: each then keeps the repository label it has
   * @throws CommandException when the API server would refuse one
   */
  Result compare(List<ConfigMap> desired, FunctionRepository owning, Revision revision) {
    String owner = owning == null ? null
        : Labels.repository(owning.getMetadata().getNamespace(), owning.getMetadata().getName());
    StringBuilder diff = new StringBuilder();
    List<String> refusals = new ArrayList<>();
    Set<String> declared = new TreeSet<>();
    for (ConfigMap configMap : desired) {
      String name = configMap.getMetadata().getName();
      String key = namespace + "/" + name;
      declared.add(name);
      GenericKubernetesResource live = configMaps.inNamespace(namespace).withName(name).get();
      String label = live == null ? null
          : Objects.requireNonNullElse(live.getMetadata().getLabels(), Map.<String, String>of()).get(Labels.REPOSITORY);
      if (live != null && (label == null || (owner != null && !owner.equals(label)))) {
        refusals.add("ConfigMap " + key + " exists and " + (label == null ? "was not made by a FunctionRepository"
            : "belongs to FunctionRepository " + label) + "; the controller does not take it over and would refuse"
            + " the revision: delete it, or rename the ConfigMap in the folder");
        continue;
      }
      GenericKubernetesResource after = dryRun(key, applied(configMap, owner != null ? owner : label, revision));
      diff.append(live == null ? ObjectDiff.CONFIG_MAP.added(key, after)
          : ObjectDiff.CONFIG_MAP.changed(key, live, after));
    }
    if (owning != null && DiffCommand.prunes(owning)) {
      for (String name : owned(owning)) {
        GenericKubernetesResource live = declared.contains(name) ? null
            : configMaps.inNamespace(namespace).withName(name).get();
        if (live != null) {
          diff.append(ObjectDiff.CONFIG_MAP.removed(namespace + "/" + name, live));
        }
      }
    }
    return new Result(diff.toString(), refusals);
  }

  private GenericKubernetesResource dryRun(String key, GenericKubernetesResource applied) {
    try {
      return configMaps.inNamespace(namespace).resource(applied).dryRun().fieldManager(FieldManagers.SYNC)
          .forceConflicts().serverSideApply();
    } catch (KubernetesClientException e) {
      throw new CommandException("ConfigMap " + key + " would be refused: "
          + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage()));
    }
  }

  /**
   * The ConfigMap as the controller applies it: its labels with the repository's ({@code owner}, none when null),
   * its annotations with the revision's, and its data; nothing else of the file's metadata.
   */
  static GenericKubernetesResource applied(ConfigMap desired, String owner, Revision revision) {
    Map<String, String> labels = new TreeMap<>(Objects.requireNonNullElse(desired.getMetadata().getLabels(),
        Map.of()));
    if (owner != null) {
      labels.put(Labels.REPOSITORY, owner);
    }
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(
        desired.getMetadata().getAnnotations(), Map.of()));
    annotations.put(Annotations.REVISION, revision.toString());
    ConfigMap applied = new ConfigMapBuilder().withApiVersion("v1").withKind("ConfigMap").withNewMetadata()
        .withName(desired.getMetadata().getName()).withNamespace(desired.getMetadata().getNamespace())
        .withLabels(labels).withAnnotations(annotations).endMetadata()
        .withImmutable(desired.getImmutable()).withData(desired.getData()).withBinaryData(desired.getBinaryData())
        .build();
    return SERIALIZATION.convertValue(applied, GenericKubernetesResource.class);
  }

  private static List<String> owned(FunctionRepository repository) {
    if (repository.getStatus() == null || repository.getStatus().getConfigMaps() == null) {
      return List.of();
    }
    return repository.getStatus().getConfigMaps().stream().map(AppliedConfigMap::getName).sorted().toList();
  }
}
