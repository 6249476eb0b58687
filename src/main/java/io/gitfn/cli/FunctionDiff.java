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
 * What applying a Function would change, as text: its labels, annotations and spec as YAML, compared line by
 * line. gitfn's bookkeeping annotations (revision, applied hash) are left out: they change with every commit.
 */
final class FunctionDiff {

  static final int CONTEXT = 3;
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private FunctionDiff() {}

  /** {@code ~ changed Function ns/name} and the hunks, or empty when applying changes nothing shown here. */
  static String changed(String key, GenericKubernetesResource live, GenericKubernetesResource after) {
    List<String> hunks = LineDiff.unified(yaml(live), yaml(after), CONTEXT);
    return hunks.isEmpty() ? "" : "~ changed Function " + key + "\n" + String.join("\n", hunks) + "\n";
  }

  static String added(String key, GenericKubernetesResource after) {
    return "+ new Function " + key + "\n" + prefixed("+", yaml(after));
  }

  static String removed(String key, GenericKubernetesResource live) {
    return "- removed Function " + key + "\n" + prefixed("-", yaml(live));
  }

  static List<String> yaml(GenericKubernetesResource function) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    Map<String, String> labels = new TreeMap<>(nonNull(function.getMetadata().getLabels()));
    Map<String, String> annotations = new TreeMap<>(nonNull(function.getMetadata().getAnnotations()));
    annotations.remove(Annotations.REVISION);
    annotations.remove(Annotations.APPLIED_HASH);
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
    Object spec = function.getAdditionalProperties().get("spec");
    if (spec != null) {
      view.put("spec", sorted(spec));
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
