package io.gitfn.manifest;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Objects;
import java.util.Optional;

/**
 * A ConfigMap of the revision, checked as Kubernetes would check it and with no key of the controller's: its name,
 * labels, annotations, {@code data}, {@code binaryData} (base64, as the API takes it) and {@code immutable}. Its
 * namespace is as the file has it, or none: only the controller knows the repository's namespace, which is the one
 * a ConfigMap may name.
 *
 * @param line the 1-based line its document starts on, for messages
 * @param configMap copied in and out, so that no caller changes what another reads
 */
public record DeclaredConfigMap(String file, int line, ConfigMap configMap) {

  public DeclaredConfigMap {
    Objects.requireNonNull(file, "file");
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 (none) or more, not " + line);
    }
    Objects.requireNonNull(configMap.getMetadata().getName(), "configMap's name");
    configMap = new ConfigMapBuilder(configMap).build();
  }

  @Override
  public ConfigMap configMap() {
    return new ConfigMapBuilder(configMap).build();
  }

  public String name() {
    return configMap.getMetadata().getName();
  }

  /** Where it is declared, as messages show it: {@code file:line}. */
  public String place() {
    return file + (line > 0 ? ":" + line : "");
  }

  /**
   * Why a FunctionRepository in {@code namespace} does not apply it, or empty: a repository's ConfigMaps go to its
   * own namespace, which one may name but not change.
   */
  public Optional<ManifestError> refusedIn(String namespace) {
    return DeclaredObject.refusal(file, line, "ConfigMap", configMap.getMetadata().getNamespace(), namespace);
  }


  /** The ConfigMap as a FunctionRepository in {@code namespace} applies it: in that namespace. */
  public ConfigMap in(String namespace) {
    refusedIn(namespace).ifPresent(refused -> {
      throw new IllegalArgumentException(refused.toString());
    });
    ConfigMap placed = configMap();
    placed.getMetadata().setNamespace(namespace);
    return placed;
  }

  /** Its place and name, not its data, which may be a megabyte. */
  @Override
  public String toString() {
    return "DeclaredConfigMap[" + place() + ", " + name() + "]";
  }
}
