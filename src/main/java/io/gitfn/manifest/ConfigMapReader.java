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
  /** Labels and annotations the controller writes ({@code gitfn.io/repository} decides what prune deletes). */
  static final String RESERVED_PREFIX = "gitfn.io/";
  private static final List<String> FIELDS = List.of("apiVersion", "kind", "metadata", "data", "binaryData",
      "immutable");
  private static final List<String> METADATA = List.of("name", "namespace", "labels", "annotations");
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
    onlyFields(tree, "", FIELDS);
    JsonNode metadata = tree.path("metadata");
    if (!metadata.isObject()) {
      error("metadata", "is missing or not a mapping; a ConfigMap needs metadata.name");
      return Optional.empty();
    }
    onlyFields(metadata, "metadata.", METADATA);
    String name = name(metadata.path("name"));
    String namespace = namespace(metadata.path("namespace"));
    Map<String, String> labels = metadataMap(metadata.path("labels"), "metadata.labels");
    Map<String, String> annotations = metadataMap(metadata.path("annotations"), "metadata.annotations");
    List<Violation> violations = new ArrayList<>();
    FunctionValidator.checkLabels(labels, "metadata.labels", false, violations);
    FunctionValidator.checkAnnotations(annotations, "metadata.annotations", false, violations);
    violations.forEach(violation -> error(violation.field(), violation.message()));
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
        .withName(name)
        .withNamespace(namespace)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withData(data)
        .withBinaryData(binaryData)
        .withImmutable(immutable)
        .build();
    return Optional.of(new DeclaredConfigMap(document.file(), document.lines().documentLine(), configMap));
  }

  private void onlyFields(JsonNode mapping, String prefix, List<String> known) {
    mapping.fieldNames().forEachRemaining(field -> {
      if (!known.contains(field)) {
        error(prefix + field, "is not a field gitfn applies on a ConfigMap" + (prefix.isEmpty() ? "" : "'s metadata")
            + "; it takes " + String.join(", ", known) + (prefix.isEmpty() ? "" : " (a ConfigMap exported from a"
            + " cluster keeps fields the cluster sets: remove them)"));
      }
    });
  }

  private String name(JsonNode name) {
    if (absent(name)) {
      error("metadata.name", "is required");
      return null;
    }
    String text = text(name, "metadata.name");
    if (text != null && !KubernetesNames.isDns1123Subdomain(text)) {
      error("metadata.name", "`" + shown(text) + "` is not a DNS-1123 subdomain: at most 253 lower-case letters,"
          + " digits, '-' and '.', starting and ending with a letter or digit");
    }
    return text;
  }

  private String namespace(JsonNode namespace) {
    if (absent(namespace)) {
      return null;
    }
    String text = text(namespace, "metadata.namespace");
    // It becomes part of an API path; which namespace it may be, only the controller knows.
    if (text != null) {
      KubernetesNames.namespace(text).ifPresent(wrong -> error("metadata.namespace", wrong));
    }
    return text;
  }

  /** Labels or annotations as text; a key of the controller's is an error. */
  private Map<String, String> metadataMap(JsonNode mapping, String field) {
    Map<String, String> texts = new LinkedHashMap<>();
    entries(mapping, field).forEach((key, value) -> {
      String at = field + "[" + key + "]";
      if (key.startsWith(RESERVED_PREFIX)) {
        error(at, "keys starting with " + RESERVED_PREFIX + " are the controller's to set (it tells by them which"
            + " repository a ConfigMap belongs to and what to prune); use another prefix");
        return;
      }
      String text = text(value, at);
      if (text != null) {
        texts.put(key, text);
      }
    });
    return texts;
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
      error(at, "key `" + shown(key) + "` is " + key.length() + " characters; a ConfigMap key has at most "
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
    if (absent(immutable)) {
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
    if (absent(mapping)) {
      return entries;
    }
    if (!mapping.isObject()) {
      error(field, "is not a mapping of keys to strings");
      return entries;
    }
    mapping.fields().forEachRemaining(entry -> entries.put(entry.getKey(), entry.getValue()));
    return entries;
  }

  /** The string {@code value} is, or null with an error that says how YAML read it and how to write a string. */
  private String text(JsonNode value, String field) {
    if (value.isTextual()) {
      return value.asText();
    }
    if (value.isNumber()) {
      error(field, "is the number " + value.asText() + ", not a string: YAML reads an unquoted number as one, and a"
          + " ConfigMap holds strings; quote it, as \"" + value.asText() + "\"");
    } else if (value.isBoolean()) {
      error(field, "is the boolean " + value.asText() + ", not a string: YAML reads an unquoted true, false, yes,"
          + " no, on or off as one, and a ConfigMap holds strings; quote it");
    } else if (value.isNull()) {
      error(field, "is null, not a string: YAML reads an empty value, ~ or null as null; write \"\" for an empty"
          + " string");
    } else {
      error(field, "is a " + (value.isArray() ? "list" : "mapping") + ", not a string: a ConfigMap holds strings;"
          + " write a block of text after `|` to keep a file's content");
    }
    return null;
  }

  private void error(String field, String message) {
    errors.add(document.error(field, message));
  }

  private static boolean absent(JsonNode value) {
    return value.isMissingNode() || value.isNull();
  }

  /** A name or key short enough to quote in a message, whatever the file holds. */
  private static String shown(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }
}
