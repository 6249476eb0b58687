package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Another FunctionRepository, by name, in this one's namespace unless another is given. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RepositoryReference {

  @Required
  @Size(min = 1, max = 253)
  @JsonPropertyDescription("The FunctionRepository's name.")
  private String name;

  @Size(max = 63)
  @JsonPropertyDescription("Its namespace; this FunctionRepository's by default.")
  private String namespace;

  public RepositoryReference() {}

  public RepositoryReference(String name, String namespace) {
    this.name = name;
    this.namespace = namespace;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }
}
