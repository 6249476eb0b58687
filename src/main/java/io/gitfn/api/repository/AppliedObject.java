package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** An object of another allowed kind (a route) a FunctionRepository applied from its applied revision. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppliedObject {

  @JsonPropertyDescription("Its apiVersion, as in gateway.networking.k8s.io/v1.")
  private String apiVersion;

  @JsonPropertyDescription("Its kind, as in HTTPRoute.")
  private String kind;

  @JsonPropertyDescription("Its name, in the repository's namespace.")
  private String name;

  @JsonPropertyDescription("The file it was read from, relative to the repository's root.")
  private String file;

  public AppliedObject() {}

  public AppliedObject(String apiVersion, String kind, String name, String file) {
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.name = name;
    this.file = file;
  }

  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
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
