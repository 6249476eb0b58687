package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** What a FunctionRepository follows: exactly one of a branch, a tag, a semver range over tags, or a commit. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "[has(self.branch), has(self.tag), has(self.semver), has(self.commit)].filter(x, x).size() == 1",
    message = "Set exactly one of branch, tag, semver or commit")
@ValidationRule(value = "!has(self.tagPrefix) || has(self.semver)", message = "tagPrefix applies only to semver")
public class GitRef {

  @Size(min = 1, max = 255)
  @JsonPropertyDescription("A branch to follow; it may contain slashes.")
  private String branch;

  @Size(min = 1, max = 255)
  @JsonPropertyDescription("A tag to pin.")
  private String tag;

  @Size(min = 1, max = 255)
  @JsonPropertyDescription("A semver range, like >=1.2.0 <2.0.0; the highest matching tag wins.")
  private String semver;

  @Size(max = 255)
  @JsonPropertyDescription("With semver: the prefix tags carry before the version, like v or orders/v.")
  private String tagPrefix;

  @Size(max = 40)
  @ValidationRule(value = "self.matches('^[0-9a-f]{40}$')",
      message = "commit must be a full 40-character lowercase hex SHA")
  @JsonPropertyDescription("A full commit SHA to pin.")
  private String commit;

  public String getBranch() {
    return branch;
  }

  public void setBranch(String branch) {
    this.branch = branch;
  }

  public String getTag() {
    return tag;
  }

  public void setTag(String tag) {
    this.tag = tag;
  }

  public String getSemver() {
    return semver;
  }

  public void setSemver(String semver) {
    this.semver = semver;
  }

  public String getTagPrefix() {
    return tagPrefix;
  }

  public void setTagPrefix(String tagPrefix) {
    this.tagPrefix = tagPrefix;
  }

  public String getCommit() {
    return commit;
  }

  public void setCommit(String commit) {
    this.commit = commit;
  }

  /** How {@code gitfn get} and the dashboard show it: {@code branch:main}, {@code semver:v>=1.2}, ...; null if unset. */
  public String describe() {
    if (branch != null) {
      return "branch:" + branch;
    }
    if (tag != null) {
      return "tag:" + tag;
    }
    if (semver != null) {
      return "semver:" + (tagPrefix == null ? "" : tagPrefix) + semver;
    }
    return commit == null ? null : "commit:" + commit;
  }
}
