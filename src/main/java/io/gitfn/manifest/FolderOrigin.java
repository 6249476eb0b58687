package io.gitfn.manifest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Function made from a folder: errors about its code name the handler or dependency file; errors about the
 * rest name the Kyma CLI {@code config.yaml} at the line of the key the field came from, or else the folder.
 */
record FolderOrigin(String folder, String handler, String dependencies, YamlDocument config)
    implements Origin {

  private static final String SOURCE = "spec.source.inline.source";
  private static final String DEPENDENCIES = "spec.source.inline.dependencies";

  // Function fields and the config.yaml keys they come from; the longest matching prefix wins.
  private static final Map<String, String> CONFIG_KEYS = new LinkedHashMap<>();

  static {
    CONFIG_KEYS.put("metadata.name", "name");
    CONFIG_KEYS.put("metadata.namespace", "namespace");
    CONFIG_KEYS.put("metadata.labels", "labels");
    CONFIG_KEYS.put("spec.runtime", "runtime");
    CONFIG_KEYS.put("spec.runtimeImageOverride", "runtimeImageOverride");
    CONFIG_KEYS.put("spec.labels", "runtimeLabels");
    CONFIG_KEYS.put("spec.annotations", "runtimeAnnotations");
    CONFIG_KEYS.put("spec.env", "env");
    CONFIG_KEYS.put("spec.source.gitRepository.url", "source.url");
    CONFIG_KEYS.put("spec.source.gitRepository.reference", "source.reference");
    CONFIG_KEYS.put("spec.source.gitRepository.baseDir", "source.baseDir");
    CONFIG_KEYS.put("spec.source.gitRepository.auth.type", "source.credentialsType");
    CONFIG_KEYS.put("spec.source.gitRepository.auth", "source.credentialsSecretName");
    CONFIG_KEYS.put("spec.source", "source");
    CONFIG_KEYS.put("spec.resourceConfiguration.function.resources", "resource");
  }

  @Override
  public String sourcePath() {
    return folder;
  }

  @Override
  public ManifestError error(String field, String message) {
    if (field.startsWith(SOURCE) && handler != null) {
      return new ManifestError(handler, 0, field, message);
    }
    if (field.startsWith(DEPENDENCIES) && dependencies != null) {
      return new ManifestError(dependencies, 0, field, message);
    }
    if (config == null) {
      return new ManifestError(folder, 0, field, message);
    }
    return new ManifestError(config.file(), config.line(configKey(field)), field, message);
  }

  private String configKey(String field) {
    String best = null;
    for (String prefix : CONFIG_KEYS.keySet()) {
      if (field.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
        best = prefix;
      }
    }
    if (best == null) {
      return "";
    }
    String key = CONFIG_KEYS.get(best);
    if (key.equals("resource") && config.tree().has("resources")) {
      key = "resources";
    }
    return key + field.substring(best.length());
  }
}
