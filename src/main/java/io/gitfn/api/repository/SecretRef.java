package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Secret in the FunctionRepository's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretRef {

  @Required
  @Size(min = 1, max = 253)
  @JsonPropertyDescription("The name of the Secret.")
  private String name;

  public SecretRef() {}

  public SecretRef(String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }
}
