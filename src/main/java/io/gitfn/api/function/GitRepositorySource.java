package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A directory of a Git repository, at a branch, tag or commit, that holds a Function's handler. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GitRepositorySource {

  @Required
  @JsonPropertyDescription("URL of the Git repository: http(s)://, git://, ssh:// or git@host:path.")
  private String url;

  @JsonPropertyDescription("Directory inside the repository that holds the handler and its dependency file.")
  private String baseDir;

  @JsonPropertyDescription("Branch, tag or full commit SHA to build from.")
  private String reference;

  @JsonPropertyDescription("How to authenticate to the repository. Required for SSH.")
  private RepositoryAuth auth;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public String getBaseDir() {
    return baseDir;
  }

  public void setBaseDir(String baseDir) {
    this.baseDir = baseDir;
  }

  public String getReference() {
    return reference;
  }

  public void setReference(String reference) {
    this.reference = reference;
  }

  public RepositoryAuth getAuth() {
    return auth;
  }

  public void setAuth(RepositoryAuth auth) {
    this.auth = auth;
  }
}
