package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The resources of a Function's Pods and of its dependency install Job, each as a named profile or explicit
 * requirements.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceConfiguration {

  @ValidationRule(value = "has(self.profile) && !has(self.resources) || !has(self.profile) && has(self.resources)",
      message = "Use profile or resources")
  @ValidationRule(value = "(!has(self.profile) || self.profile in ['local-dev','slow','normal','fast'])",
      message = "Invalid profile, please use one of: ['local-dev','slow','normal','fast']")
  @JsonPropertyDescription("Resources of the Pod of the Job that installs the Function's dependencies. Kyma"
      + " deprecated it with its build Job; gitfn's install Jobs use it.")
  private ProfileOrResources build;

  @ValidationRule(value = "has(self.profile) && !has(self.resources) || !has(self.profile) && has(self.resources)",
      message = "Use profile or resources")
  @ValidationRule(value = "(!has(self.profile) || self.profile in ['XS','S','M','L','XL'])",
      message = "Invalid profile, please use one of: ['XS','S','M','L','XL']")
  @JsonPropertyDescription("Resources of the Function's Pods.")
  private ProfileOrResources function;

  public ProfileOrResources getBuild() {
    return build;
  }

  public void setBuild(ProfileOrResources build) {
    this.build = build;
  }

  public ProfileOrResources getFunction() {
    return function;
  }

  public void setFunction(ProfileOrResources function) {
    this.function = function;
  }
}
