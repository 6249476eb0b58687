package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.gitfn.api.KubernetesNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a ConfigMap ({@code v1}) of the revision and checks it as the API server would, at its lines, so that one
 * it would refuse makes the revision invalid before anything is applied. It takes a name, a namespace, labels,
 * annotations, {@code data}, {@code binaryData} and {@code immutable}, nothing else; no label or annotation of the
 * controller's.
 *
 * <p>A value is taken as the file has it, never coerced: YAML reads an unquoted {@code 8080} as a number and
 * {@code true} or {@code yes} as a boolean, which a ConfigMap cannot hold (the API server refuses them too), so each
 * is an error that says to quote it.
 */
final class ConfigMapReader {

  static final String API_VERSION = "v1";
  static final String KIND = "ConfigMap";
  /** What the API server allows in data and binaryData together (its MaxSecretSize, which ConfigMaps share). */
  static final int MAX_DATA_BYTES = 1024 * 1024;
  private static final List<String> FIELDS = List.of("apiVersion", "kind", "metadata", "data", "binaryData",
      "immutable");
  /** Kubernetes' IsConfigMapKey: a key becomes a file name when the ConfigMap is mounted. */
  private static final int MAX_KEY_LENGTH = 253;

  private final YamlDocument document;
  private final List<ManifestError> errors;

  private ConfigMapReader(YamlDocument document, List<ManifestError> errors) {
    this.document = document;
    this.errors = errors;
  }

  static boolean isConfigMap(JsonNode tree) {
    return tree.path("kind").asText("").equals(KIND) && tree.path("apiVersion").asText("").equals(API_VERSION);
  }

  /** The ConfigMap {@code document} declares, or empty with every reason it is not one gitfn applies. */
  static Optional<DeclaredConfigMap> read(YamlDocument document, List<ManifestError> errors) {
    return new ConfigMapReader(document, errors).read();
  }

  private Optional<DeclaredConfigMap> read() {
    int before = errors.size();
    JsonNode tree = document.tree();
    onlyFields(tree);
    MetadataReader.Read metadata = new MetadataReader(document, KIND, errors).read();
    if (metadata == null) {
      return Optional.empty();
    }
    Map<String, String> data = values(tree.path("data"), "data");
    Map<String, String> binaryData = binaryData(tree.path("binaryData"));
    for (String key : binaryData.keySet()) {
      if (data.containsKey(key)) {
        error("binaryData[" + key + "]", "is also a key of data; a key is in data or in binaryData, not both");
      }
    }
    checkSize(data, binaryData);
    Boolean immutable = immutable(tree.path("immutable"));
    if (errors.size() > before) {
      return Optional.empty();
    }
    ConfigMap configMap = new ConfigMapBuilder()
        .withNewMetadata()
        .withName(metadata.name())
        .withNamespace(metadata.namespace())
        .withLabels(metadata.labels())
        .withAnnotations(metadata.annotations())
        .endMetadata()
        .withData(data)
        .withBinaryData(binaryData)
        .withImmutable(immutable)
        .build();
    return Optional.of(new DeclaredConfigMap(document.file(), document.lines().documentLine(), configMap));
  }

  private void onlyFields(JsonNode mapping) {
    mapping.fieldNames().forEachRemaining(field -> {
      if (!FIELDS.contains(field)) {
        error(field, "is not a field gitfn applies on a ConfigMap; it takes " + String.join(", ", FIELDS));
      }
    });
  }

  /** The text values of {@code data}, their keys checked, sorted by key. */
  private Map<String, String> values(JsonNode mapping, String field) {
    Map<String, String> values = new TreeMap<>();
    entries(mapping, field).forEach((key, value) -> {
      String at = field + "[" + key + "]";
      String text = text(value, at);
      if (checkKey(key, at) && text != null) {
        values.put(key, text);
      }
    });
    return values;
  }

  /** {@code binaryData}'s values, checked as base64 and kept in the canonical form, sorted by key. */
  private Map<String, String> binaryData(JsonNode mapping) {
    Map<String, String> binary = new TreeMap<>();
    values(mapping, "binaryData").forEach((key, base64) -> {
      // The API server decodes with Go's base64.StdEncoding: padded, line breaks skipped.
      String compact = base64.replace("\r", "").replace("\n", "");
      try {
        if (compact.length() % 4 != 0) {
          throw new IllegalArgumentException("unpadded");
        }
        binary.put(key, Base64.getEncoder().encodeToString(Base64.getDecoder().decode(compact)));
      } catch (IllegalArgumentException e) {
        error("binaryData[" + key + "]", "is not base64 (padded, as `base64` writes it); a value under binaryData"
            + " is base64, put text under data");
      }
    });
    return binary;
  }

  private boolean checkKey(String key, String at) {
    if (key.length() > MAX_KEY_LENGTH) {
      error(at, "key `" + MetadataReader.shown(key) + "` is " + key.length() + " characters; a ConfigMap key has at most "
          + MAX_KEY_LENGTH);
      return false;
    }
    if (!KubernetesNames.isDataKey(key)) {
      error(at, "key `" + key + "` is not a ConfigMap key: letters, digits, '-', '_' and '.', other than . and .."
          + " and not starting with .. (it becomes a file name where the ConfigMap is mounted)");
      return false;
    }
    return true;
  }

  /** Data and binaryData together, counted as the API server counts them: text as UTF-8, binary decoded. */
  private void checkSize(Map<String, String> data, Map<String, String> binaryData) {
    long bytes = 0;
    for (String text : data.values()) {
      bytes += text.getBytes(StandardCharsets.UTF_8).length;
    }
    for (String base64 : binaryData.values()) {
      bytes += decodedLength(base64);
    }
    if (bytes > MAX_DATA_BYTES) {
      error(data.isEmpty() ? "binaryData" : "data", "the ConfigMap holds " + bytes + " bytes of data and binaryData,"
          + " more than the " + MAX_DATA_BYTES + " (1 MiB) Kubernetes allows in one ConfigMap; split it");
    }
  }

  /** The bytes canonical {@code base64} stands for, without decoding it again. */
  private static long decodedLength(String base64) {
    int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
    return base64.length() / 4L * 3 - padding;
  }

  private Boolean immutable(JsonNode immutable) {
    if (MetadataReader.absent(immutable)) {
      return null;
    }
    if (!immutable.isBoolean()) {
      error("immutable", "is not true or false");
      return null;
    }
    return immutable.booleanValue();
  }

  /** The entries of the mapping {@code field}, in order; none when it is not there. */
  private Map<String, JsonNode> entries(JsonNode mapping, String field) {
    Map<String, JsonNode> entries = new LinkedHashMap<>();
    if (MetadataReader.absent(mapping)) {
      return entries;
    }
    if (!mapping.isObject()) {
      error(field, "is not a mapping of keys to strings");
      return entries;
    }
    mapping.fields().forEachRemaining(entry -> entries.put(entry.getKey(), entry.getValue()));
    return entries;
  }

  private String text(JsonNode value, String field) {
    return MetadataReader.text(document, value, field, "a ConfigMap", errors);
  }

  private void error(String field, String message) {
    errors.add(document.error(field, message));
  }
}
