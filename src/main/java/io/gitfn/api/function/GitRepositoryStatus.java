package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Where a Git-sourced Function's running code came from, as Kyma's current status reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GitRepositoryStatus {

  @JsonPropertyDescription("The repository URL.")
  private String url;

  @JsonPropertyDescription("The folder of the repository the Function is read from.")
  private String baseDir;

  @JsonPropertyDescription("The branch, tag or commit the spec follows.")
  private String reference;

  @JsonPropertyDescription("The commit the reference resolved to at the last check.")
  private String commit;

  public GitRepositoryStatus() {}

  public GitRepositoryStatus(String url, String baseDir, String reference, String commit) {
    this.url = url;
    this.baseDir = baseDir;
    this.reference = reference;
    this.commit = commit;
  }

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

  public String getCommit() {
    return commit;
  }

  public void setCommit(String commit) {
    this.commit = commit;
  }
}
