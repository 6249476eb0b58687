package io.gitfn.workload;

import io.gitfn.api.function.Function;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The labels a Function's children carry, named as Kyma names them (reference §2.5). */
public final class Labels {

  public static final String FUNCTION_NAME = "serverless.kyma-project.io/function-name";
  public static final String MANAGED_BY = "serverless.kyma-project.io/managed-by";
  public static final String UUID = "serverless.kyma-project.io/uuid";
  public static final String RESOURCE = "serverless.kyma-project.io/resource";
  public static final String APP_NAME = "app.kubernetes.io/name";
  public static final String CONTENT_KEY = "gitfn.io/content-key";

  /** Kyma's value, kept so that tools which list a Function's children by label keep working. */
  public static final String MANAGER = "function-controller";

  private Labels() {
  }

  /**
   * The internal labels: the Function's name, the manager and, once the Function has one, its UID. The UID is a
   * label only; it never enters the content key, so a recreated Function reuses its image.
   */
  public static Map<String, String> internal(Function fn) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(FUNCTION_NAME, fn.getMetadata().getName());
    labels.put(MANAGED_BY, MANAGER);
    String uid = fn.getMetadata().getUid();
    if (uid != null && !uid.isBlank()) {
      labels.put(UUID, uid);
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
    labels.put(RESOURCE, "deployment");
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
    labels.put(APP_NAME, fn.getMetadata().getName());
    labels.putAll(selector(fn));
    return Collections.unmodifiableMap(labels);
  }
}
