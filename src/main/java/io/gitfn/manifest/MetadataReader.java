package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.gitfn.api.KubernetesNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the metadata an object of the revision may carry (name, namespace, labels, annotations) and checks it as the
 * API server would, at its lines. A label or annotation of the controller's is an error: {@code gitfn.io/repository}
 * decides what prune deletes, so a file must not set it.
 */
final class MetadataReader {

  /** Labels and annotations the controller writes. */
  static final String RESERVED_PREFIX = "gitfn.io/";
  private static final List<String> FIELDS = List.of("name", "namespace", "labels", "annotations");

  /** What {@code metadata} holds, each part null when absent or wrong. */
  record Read(String name, String namespace, Map<String, String> labels, Map<String, String> annotations) {}

  private final YamlDocument document;
  private final String kind;
  private final List<ManifestError> errors;

  MetadataReader(YamlDocument document, String kind, List<ManifestError> errors) {
    this.document = document;
    this.kind = kind;
    this.errors = errors;
  }

  /** The document's metadata, or null when it has none (an error says so). */
  Read read() {
    JsonNode metadata = document.tree().path("metadata");
    if (!metadata.isObject()) {
      error("metadata", "is missing or not a mapping; " + withArticle(kind) + " needs metadata.name");
      return null;
    }
    metadata.fieldNames().forEachRemaining(field -> {
      if (!FIELDS.contains(field)) {
        error("metadata." + field, "is not a field gitfn applies on " + withArticle(kind) + "'s metadata; it takes "
            + String.join(", ", FIELDS) + " (" + withArticle(kind) + " exported from a cluster keeps fields the"
            + " cluster sets: remove them)");
      }
    });
    String name = name(metadata.path("name"));
    String namespace = namespace(metadata.path("namespace"));
    Map<String, String> labels = map(metadata.path("labels"), "metadata.labels");
    Map<String, String> annotations = map(metadata.path("annotations"), "metadata.annotations");
    List<Violation> violations = new ArrayList<>();
    FunctionValidator.checkLabels(labels, "metadata.labels", false, violations);
    FunctionValidator.checkAnnotations(annotations, "metadata.annotations", false, violations);
    violations.forEach(violation -> error(violation.field(), violation.message()));
    return new Read(name, namespace, labels, annotations);
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
  private Map<String, String> map(JsonNode mapping, String field) {
    Map<String, String> texts = new LinkedHashMap<>();
    if (absent(mapping)) {
      return texts;
    }
    if (!mapping.isObject()) {
      error(field, "is not a mapping of keys to strings");
      return texts;
    }
    mapping.fields().forEachRemaining(entry -> {
      String at = field + "[" + entry.getKey() + "]";
      if (entry.getKey().startsWith(RESERVED_PREFIX)) {
        error(at, "keys starting with " + RESERVED_PREFIX + " are the controller's to set (it tells by them which"
            + " repository " + withArticle(kind) + " belongs to and what to prune); use another prefix");
        return;
      }
      String text = text(entry.getValue(), at);
      if (text != null) {
        texts.put(entry.getKey(), text);
      }
    });
    return texts;
  }

  private String text(JsonNode value, String field) {
    return text(document, value, field, "Kubernetes metadata", errors);
  }

  /**
   * The string {@code value} is, or null with an error that says how YAML read it and how to write a string.
   *
   * @param holder what holds the value, for the message: "a ConfigMap"
   */
  static String text(YamlDocument document, JsonNode value, String field, String holder,
      List<ManifestError> errors) {
    if (value.isTextual()) {
      return value.asText();
    }
    String message;
    if (value.isNumber()) {
      message = "is the number " + value.asText() + ", not a string: YAML reads an unquoted number as one, and "
          + holder + " holds strings; quote it, as \"" + value.asText() + "\"";
    } else if (value.isBoolean()) {
      message = "is the boolean " + value.asText() + ", not a string: YAML reads an unquoted true, false, yes, no, on"
          + " or off as one, and " + holder + " holds strings; quote it";
    } else if (value.isNull()) {
      message = "is null, not a string: YAML reads an empty value, ~ or null as null; write \"\" for an empty string";
    } else {
      message = "is a " + (value.isArray() ? "list" : "mapping") + ", not a string: " + holder + " holds strings;"
          + " write a block of text after `|` to keep a file's content";
    }
    errors.add(document.error(field, message));
    return null;
  }

  private void error(String field, String message) {
    errors.add(document.error(field, message));
  }

  /**
   * The kind with "a" or "an" before it, as it is read aloud: "an Ingress", "a ConfigMap", and "an HTTPRoute", whose
   * leading capitals are spelt out.
   */
  static String withArticle(String kind) {
    boolean spelt = kind.length() > 1 && Character.isUpperCase(kind.charAt(0)) && Character.isUpperCase(kind.charAt(1));
    String vowelSounds = spelt ? "AEFHILMNORSX" : "AEIOU";
    return (!kind.isEmpty() && vowelSounds.indexOf(Character.toUpperCase(kind.charAt(0))) >= 0 ? "an " : "a ")
        + kind;
  }

  static boolean absent(JsonNode value) {
    return value.isMissingNode() || value.isNull();
  }

  /** A name or key short enough to quote in a message, whatever the file holds. */
  static String shown(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }
}
