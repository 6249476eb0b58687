package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Kyma's deprecated Pod template block. It stays in the schema so that old YAML gets a clear rejection
 * instead of a pruned field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Template {

  private Map<String, String> labels;
  private Map<String, String> annotations;

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }
}
