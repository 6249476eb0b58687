package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * Resources given either as a named profile ({@code S}, {@code fast} ...) or as explicit requirements, never
 * both. Kyma calls this type ResourceRequirements; the name here keeps it apart from the Kubernetes one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProfileOrResources {

  @JsonPropertyDescription("The name of a predefined set of resources. Can't be used together with resources.")
  private String profile;

  @JsonPropertyDescription("Explicit resource requests and limits. Can't be used together with profile.")
  private ResourceRequirements resources;

  public String getProfile() {
    return profile;
  }

  public void setProfile(String profile) {
    this.profile = profile;
  }

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
  }
}
