package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A ConfigMap a FunctionRepository applied from its applied revision. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppliedConfigMap {

  @JsonPropertyDescription("The ConfigMap's name, in the repository's namespace.")
  private String name;

  @JsonPropertyDescription("The file it was read from, relative to the repository's root.")
  private String file;

  public AppliedConfigMap() {}

  public AppliedConfigMap(String name, String file) {
    this.name = name;
    this.file = file;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getFile() {
    return file;
  }

  public void setFile(String file) {
    this.file = file;
  }
}
