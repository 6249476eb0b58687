package io.gitfn.workload;

import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The labels a Function's children carry, with the keys Kyma gives them ({@link Labels}). */
public final class ChildLabels {

  private ChildLabels() {}

  /**
   * The internal labels: the Function's name, the manager and, once the Function has one, its UID. The UID is a
   * label only; it never enters the content key, so a recreated Function reuses its image.
   */
  public static Map<String, String> internal(Function fn) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.FUNCTION_NAME, fn.getMetadata().getName());
    labels.put(Labels.MANAGED_BY, Labels.MANAGER);
    String uid = fn.getMetadata().getUid();
    if (uid != null && !uid.isBlank()) {
      labels.put(Labels.UUID, uid);
    }
    return Collections.unmodifiableMap(labels);
  }

  /** The Function's own metadata labels with the internal labels over them; the internal labels win. */
  public static Map<String, String> ofFunction(Function fn) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (fn.getMetadata().getLabels() != null) {
      labels.putAll(fn.getMetadata().getLabels());
    }
    labels.putAll(internal(fn));
    return Collections.unmodifiableMap(labels);
  }

  /** The Deployment's selector, which the Service selects too: the internal labels plus the resource marker. */
  public static Map<String, String> selector(Function fn) {
    Map<String, String> labels = new LinkedHashMap<>(internal(fn));
    labels.put(Labels.RESOURCE, "deployment");
    return Collections.unmodifiableMap(labels);
  }

  /**
   * The runtime Pod's labels: {@code spec.labels}, {@code app.kubernetes.io/name} and the selector. The selector
   * goes last so that no user label can take a Pod out of its Deployment.
   */
  public static Map<String, String> ofPod(Function fn) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (fn.getSpec().getLabels() != null) {
      labels.putAll(fn.getSpec().getLabels());
    }
    labels.put(Labels.APP_NAME, fn.getMetadata().getName());
    labels.putAll(selector(fn));
    return Collections.unmodifiableMap(labels);
  }
}
