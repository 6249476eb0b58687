package io.gitfn.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.gitfn.api.KubernetesNames;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a decrypted document as the Secret gitfn applies, and builds it: {@code apiVersion: v1}, {@code kind:
 * Secret}, a name, the repository's namespace or none, labels, annotations, {@code type}, {@code immutable}, and
 * values under {@code data} (base64) or {@code stringData} (text), nothing else. {@code stringData} is folded into
 * {@code data} as the API server folds it, its value winning over {@code data}'s for the same key.
 *
 * <p>A message names the file and the field, never a value: names, namespaces and keys are quoted, because they are
 * the object's public face in the cluster (and keys are in clear in the file); labels, annotations and data are not.
 */
final class SecretValidator {

  private static final Set<String> FIELDS =
      Set.of("apiVersion", "kind", "metadata", "type", "immutable", "data", "stringData");
  private static final Set<String> METADATA = Set.of("name", "namespace", "labels", "annotations");
  /** Kubernetes' IsConfigMapKey, which Secret keys follow. */
  /**
   * The token controller fills a Secret of this type with a token of the service account its annotation names: a
   * repository could get the token of any account in its namespace, and mount it into a Function.
   */
  static final String SERVICE_ACCOUNT_TOKEN = "kubernetes.io/service-account-token";
  /** Labels and annotations the controller writes ({@code gitfn.io/repository} decides what prune deletes). */
  static final String RESERVED_PREFIX = "gitfn.io/";

  private final String file;

  private SecretValidator(String file) {
    this.file = file;
  }

  /** The Secret {@code document} declares, in {@code namespace}; or why it is not one gitfn applies. */
  static Secret toSecret(String file, JsonNode document, String namespace) throws SecretException {
    return new SecretValidator(file).secret(document, namespace);
  }

  private Secret secret(JsonNode document, String namespace) throws SecretException {
    for (Iterator<String> fields = document.fieldNames(); fields.hasNext(); ) {
      String field = fields.next();
      if (!FIELDS.contains(field)) {
        throw invalid("`" + field + "` is not a field gitfn applies on a Secret; it takes apiVersion, kind,"
            + " metadata, type, immutable, data and stringData");
      }
    }
    if (!is(document.path("apiVersion"), "v1")) {
      throw invalid("apiVersion: is not v1; an encrypted Secret is a v1 Secret");
    }
    if (!is(document.path("kind"), "Secret")) {
      throw invalid("kind: is not Secret; gitfn decrypts Secrets only");
    }
    JsonNode metadata = document.path("metadata");
    if (!metadata.isObject()) {
      throw invalid("metadata: is missing or not a mapping; a Secret needs metadata.name");
    }
    for (Iterator<String> fields = metadata.fieldNames(); fields.hasNext(); ) {
      String field = fields.next();
      if (!METADATA.contains(field)) {
        throw invalid("metadata.`" + field + "` is not one gitfn applies; a Secret's metadata takes name,"
            + " namespace, labels and annotations");
      }
    }
    String name = name(metadata.path("name"));
    checkNamespace(metadata.path("namespace"), namespace);
    Map<String, String> labels = strings(metadata.path("labels"), "metadata.labels");
    for (Map.Entry<String, String> label : labels.entrySet()) {
      if (KubernetesNames.labelValue(label.getValue()).isPresent()) {
        throw invalid("metadata.labels." + label.getKey() + ": is not a label value: at most 63 letters, digits,"
            + " '-', '_' or '.', starting and ending with a letter or digit");
      }
    }
    Map<String, String> annotations = strings(metadata.path("annotations"), "metadata.annotations");
    Map<String, String> data = new TreeMap<>();
    data(document.path("data"), data);
    stringData(document.path("stringData"), data);
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .withLabels(labels.isEmpty() ? null : labels)
        .withAnnotations(annotations.isEmpty() ? null : annotations)
        .endMetadata()
        .withType(type(document.path("type")))
        .withImmutable(immutable(document.path("immutable")))
        .withData(data)
        .build();
  }

  private String name(JsonNode name) throws SecretException {
    if (absent(name)) {
      throw invalid("metadata.name: is missing; a Secret needs a name");
    }
    if (!name.isTextual() || !KubernetesNames.isDns1123Subdomain(name.asText())) {
      throw invalid("metadata.name: is not a DNS-1123 subdomain: at most 253 lower-case letters, digits, '-' and"
          + " '.', starting and ending with a letter or digit");
    }
    return name.asText();
  }

  private void checkNamespace(JsonNode given, String namespace) throws SecretException {
    if (absent(given) || is(given, namespace)) {
      return;
    }
    String shown = given.isTextual() && KubernetesNames.isDns1123Label(given.asText())
        ? "`" + given.asText() + "`" : "not a namespace name";
    throw invalid("metadata.namespace: is " + shown + ", not `" + namespace + "`, the namespace of the"
        + " FunctionRepository; a repository's Secrets go to its own namespace: remove metadata.namespace or set it"
        + " to " + namespace);
  }

  /** A mapping of label or annotation keys to texts; empty when it is not there. */
  private Map<String, String> strings(JsonNode mapping, String field) throws SecretException {
    Map<String, String> strings = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : entries(mapping, field).entrySet()) {
      String key = entry.getKey();
      Optional<String> wrong = KubernetesNames.qualifiedKey(key);
      if (wrong.isPresent()) {
        throw invalid(field + ": " + wrong.get());
      }
      if (key.startsWith(RESERVED_PREFIX)) {
        throw invalid(field + ": keys starting with " + RESERVED_PREFIX + " are the controller's to set, not `"
            + key + "`");
      }
      strings.put(key, text(entry.getValue(), field + "." + key));
    }
    return strings;
  }

  /** {@code data}'s values, checked as base64 and kept in the canonical form. */
  private void data(JsonNode mapping, Map<String, String> data) throws SecretException {
    for (Map.Entry<String, JsonNode> entry : values(mapping, "data").entrySet()) {
      String field = "data." + entry.getKey();
      // The API server decodes with Go's base64.StdEncoding: padded, line breaks skipped.
      String base64 = text(entry.getValue(), field).replace("\r", "").replace("\n", "");
      byte[] decoded;
      try {
        if (base64.length() % 4 != 0) {
          throw new IllegalArgumentException("unpadded");
        }
        decoded = Base64.getDecoder().decode(base64);
      } catch (IllegalArgumentException e) {
        throw invalid(field + ": is not base64; a value under data is base64 (put text under stringData)");
      }
      data.put(entry.getKey(), Base64.getEncoder().encodeToString(decoded));
    }
  }

  private void stringData(JsonNode mapping, Map<String, String> data) throws SecretException {
    for (Map.Entry<String, JsonNode> entry : values(mapping, "stringData").entrySet()) {
      byte[] bytes = text(entry.getValue(), "stringData." + entry.getKey()).getBytes(StandardCharsets.UTF_8);
      data.put(entry.getKey(), Base64.getEncoder().encodeToString(bytes));
    }
  }

  /** The entries of {@code data} or {@code stringData}, their keys checked as Kubernetes checks them. */
  private Map<String, JsonNode> values(JsonNode mapping, String field) throws SecretException {
    Map<String, JsonNode> values = entries(mapping, field);
    for (String key : values.keySet()) {
      if (!KubernetesNames.isDataKey(key)) {
        throw invalid(field + ": key `" + key + "` is not a Secret key: at most 253 letters, digits, '-', '_'"
            + " and '.', other than . and .. and not starting with ..");
      }
    }
    return values;
  }

  /** The entries of the mapping {@code field}, in order; none when it is not there. */
  private Map<String, JsonNode> entries(JsonNode mapping, String field) throws SecretException {
    Map<String, JsonNode> entries = new LinkedHashMap<>();
    if (absent(mapping)) {
      return entries;
    }
    if (!mapping.isObject()) {
      throw invalid(field + ": is not a mapping");
    }
    mapping.fields().forEachRemaining(entry -> entries.put(entry.getKey(), entry.getValue()));
    return entries;
  }

  private String type(JsonNode type) throws SecretException {
    if (absent(type)) {
      return null;
    }
    String text = text(type, "type");
    if (text.equals(SERVICE_ACCOUNT_TOKEN)) {
      throw invalid("type: " + SERVICE_ACCOUNT_TOKEN + " is not applied from Git: Kubernetes would fill the Secret"
          + " with a service account's token");
    }
    return text;
  }

  private Boolean immutable(JsonNode immutable) throws SecretException {
    if (absent(immutable)) {
      return null;
    }
    if (!immutable.isBoolean()) {
      throw invalid("immutable: is not true or false");
    }
    return immutable.booleanValue();
  }

  /** The text of a value; its type, never the value, when it is not text (an unquoted number, say). */
  private String text(JsonNode value, String field) throws SecretException {
    if (!value.isTextual()) {
      throw invalid(field + ": is " + (value.isNumber() ? "a number" : value.isBoolean() ? "true or false"
          : value.isContainerNode() ? "a mapping or a list" : "null") + ", not text; quote it");
    }
    return value.asText();
  }

  private static boolean absent(JsonNode value) {
    return value.isMissingNode() || value.isNull();
  }

  private static boolean is(JsonNode value, String text) {
    return value.isTextual() && value.asText().equals(text);
  }

  private SecretException invalid(String problem) {
    return SecretException.invalid(file, problem);
  }
}
