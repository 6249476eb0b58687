package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/** The bounds within which a HorizontalPodAutoscaler scales a Function. Deprecated by Kyma, still honoured. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScaleConfig {

  @Required
  @Min(1)
  @JsonPropertyDescription("The minimum number of the Function's Pods.")
  private Integer minReplicas;

  @Required
  @Min(1)
  @JsonPropertyDescription("The maximum number of the Function's Pods.")
  private Integer maxReplicas;

  public Integer getMinReplicas() {
    return minReplicas;
  }

  public void setMinReplicas(Integer minReplicas) {
    this.minReplicas = minReplicas;
  }

  public Integer getMaxReplicas() {
    return maxReplicas;
  }

  public void setMaxReplicas(Integer maxReplicas) {
    this.maxReplicas = maxReplicas;
  }
}
