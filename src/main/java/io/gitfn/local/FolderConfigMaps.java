package io.gitfn.local;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.gitfn.manifest.DeclaredConfigMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The ConfigMaps a followed folder declares, as {@code gitfn up} serves them to env {@code valueFrom.configMapKeyRef}:
 * the kubelet's rules, with the folder standing in for the cluster. A ConfigMap serves the Functions of its namespace,
 * and both are in {@code default} when they name none, as local mode places Functions.
 */
final class FolderConfigMaps {

  private final Map<String, DeclaredConfigMap> byId; // namespace/name

  private FolderConfigMaps(Map<String, DeclaredConfigMap> byId) {
    this.byId = byId;
  }

  static FolderConfigMaps of(List<DeclaredConfigMap> declared) {
    Map<String, DeclaredConfigMap> byId = new HashMap<>();
    for (DeclaredConfigMap configMap : declared) {
      byId.put(namespaceOf(configMap.configMap()) + "/" + configMap.name(), configMap);
    }
    return new FolderConfigMaps(byId);
  }

  static FolderConfigMaps none() {
    return new FolderConfigMaps(Map.of());
  }

  /**
   * The value of env {@code variable} of a Function in {@code namespace}, or empty when an optional reference finds
   * nothing, which leaves the variable unset, as Kubernetes does.
   *
   * @throws LocalException when a reference that is not optional names a ConfigMap or a key the folder does not have:
   *     Kubernetes would not start the container (CreateContainerConfigError)
   */
  Optional<String> value(String namespace, String variable, ConfigMapKeySelector reference) throws LocalException {
    boolean optional = Boolean.TRUE.equals(reference.getOptional());
    DeclaredConfigMap declared = byId.get(namespace + "/" + reference.getName());
    if (declared == null) {
      if (optional) {
        return Optional.empty();
      }
      throw new LocalException("env " + variable + " reads ConfigMap " + reference.getName() + ", which the folder"
          + " does not declare in namespace " + namespace + unstarted("declare it"));
    }
    ConfigMap configMap = declared.configMap();
    String value = Objects.requireNonNullElse(configMap.getData(), Map.<String, String>of()).get(reference.getKey());
    if (value != null || optional) {
      return Optional.ofNullable(value);
    }
    // The kubelet reads env from data only; a key in binaryData is as missing as an absent one.
    boolean binary = Objects.requireNonNullElse(configMap.getBinaryData(), Map.<String, String>of())
        .containsKey(reference.getKey());
    throw new LocalException("env " + variable + " reads key " + reference.getKey() + " of ConfigMap "
        + reference.getName() + " (" + declared.place() + "), which " + (binary
            ? "has it in binaryData, and env is read from data only" : "has no such key in data")
        + unstarted("add the key"));
  }

  private static String unstarted(String fix) {
    return "; Kubernetes would not start the container either (CreateContainerConfigError): " + fix
        + ", or mark the reference optional: true";
  }

  private static String namespaceOf(ConfigMap configMap) {
    return configMap.getMetadata().getNamespace() == null ? LocalRelease.DEFAULT_NAMESPACE
        : configMap.getMetadata().getNamespace();
  }
}
