package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What applying an object of one kind would change, as text: its labels, annotations and content fields as YAML,
 * compared line by line. gitfn's bookkeeping annotations (revision, applied hash) are left out: they change with
 * every commit.
 *
 * @param kind the kind's name in the headers
 * @param fields the top-level fields that hold the content, in the order shown; none for every field but apiVersion,
 *     kind, metadata and status, in the object's order
 */
record ObjectDiff(String kind, List<String> fields) {

  /** A Function: its spec. */
  static final ObjectDiff FUNCTION = new ObjectDiff("Function", List.of("spec"));
  /** A ConfigMap: its values are not secret, so they are shown. */
  static final ObjectDiff CONFIG_MAP = new ObjectDiff("ConfigMap", List.of("data", "binaryData", "immutable"));

  /** An object of a kind gitfn applies as the file has it (a route): all of its content. */
  static ObjectDiff whole(String kind) {
    return new ObjectDiff(kind, List.of());
  }

  static final int CONTEXT = 3;
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  ObjectDiff {
    fields = List.copyOf(fields);
  }

  /** {@code ~ changed <kind> ns/name} and the hunks, or empty when applying changes nothing shown here. */
  String changed(String key, GenericKubernetesResource live, GenericKubernetesResource after) {
    List<String> hunks = LineDiff.unified(yaml(live), yaml(after), CONTEXT);
    return hunks.isEmpty() ? "" : "~ changed " + kind + " " + key + "\n" + String.join("\n", hunks) + "\n";
  }

  String added(String key, GenericKubernetesResource after) {
    return "+ new " + kind + " " + key + "\n" + prefixed("+", yaml(after));
  }

  String removed(String key, GenericKubernetesResource live) {
    return "- removed " + kind + " " + key + "\n" + prefixed("-", yaml(live));
  }

  List<String> yaml(GenericKubernetesResource object) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    Map<String, String> labels = new TreeMap<>(nonNull(object.getMetadata().getLabels()));
    Map<String, String> annotations = new TreeMap<>(nonNull(object.getMetadata().getAnnotations()));
    annotations.remove(Annotations.REVISION);
    annotations.remove(Annotations.APPLIED_HASH);
    annotations.remove(Annotations.APPLIED_DIGEST);
    if (!labels.isEmpty()) {
      metadata.put("labels", labels);
    }
    if (!annotations.isEmpty()) {
      metadata.put("annotations", annotations);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    if (!metadata.isEmpty()) {
      view.put("metadata", metadata);
    }
    List<String> shown = !fields.isEmpty() ? fields : object.getAdditionalProperties().keySet().stream()
        .filter(field -> !field.equals("status")).toList();
    for (String field : shown) {
      Object content = object.getAdditionalProperties().get(field);
      if (content != null) {
        view.put(field, sorted(content));
      }
    }
    String yaml = SERIALIZATION.asYaml(view);
    return yaml.lines().filter(line -> !line.equals("---")).toList();
  }

  // The server may return keys in another order than gitfn sent them; order alone is not a change.
  @SuppressWarnings("unchecked")
  private static Object sorted(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> sorted = new TreeMap<>();
      ((Map<String, Object>) map).forEach((k, v) -> sorted.put(k, sorted(v)));
      return sorted;
    }
    if (value instanceof List<?> list) {
      List<Object> items = new ArrayList<>();
      list.forEach(item -> items.add(sorted(item)));
      return items;
    }
    return value;
  }

  private static String prefixed(String prefix, List<String> lines) {
    StringBuilder text = new StringBuilder();
    lines.forEach(line -> text.append(prefix).append(line).append('\n'));
    return text.toString();
  }

  private static Map<String, String> nonNull(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
