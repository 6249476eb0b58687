package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * Preview deployments of this repository's pull requests (docs/previews.md): each open pull request that qualifies
 * gets its head revision applied into a namespace of its own, {@code <namespace>-pr-<number>}, by a FunctionRepository
 * that gitfn makes beside this one and deletes with the pull request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Previews {

  @Default("false")
  @JsonPropertyDescription("Make previews. Off by default.")
  private Boolean enabled;

  @Size(max = 20)
  @JsonPropertyDescription("Only pull requests carrying one of these labels get a preview; empty or unset: every"
      + " pull request from a branch of this repository. A pull request from a fork gets one only when it carries one"
      + " of these labels, which a maintainer adds; with no labels listed, never.")
  private List<@Size(min = 1, max = 255) String> labels;

  @Default("5")
  @Min(1)
  @Max(50)
  @JsonPropertyDescription("How many previews run at once. Past it, the preview that saw no push the longest goes"
      + " first, and its pull request is told why.")
  private Integer maxActive;

  @Default("72h")
  @Pattern(FunctionRepositorySpec.DURATION_PATTERN)
  @JsonPropertyDescription("A preview whose pull request saw no push for this long is stopped (its namespace"
      + " removed); a push brings it back.")
  private String ttl;

  @Size(max = 253)
  @Pattern("^[a-z0-9.{}-]+$")
  @ValidationRule(value = "self.contains('{number}')",
      message = "host must hold {number}, or two pull requests' previews would share one host")
  @JsonPropertyDescription("The host of a preview's routes, as a template of {function}, {number}, {repository}"
      + " and {namespace}, such as {function}-pr-{number}.preview.example.com; it must hold {number}. Unset: previews"
      + " apply no routes, and each preview is reached at its Service's address in the cluster.")
  private String host;

  @Default("false")
  @JsonPropertyDescription("Whether previews decrypt the revision's SOPS-encrypted Secrets with spec.decryption."
      + " Off by default: code under review never gets the repository's keys.")
  private Boolean decryption;

  public Previews() {}

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public List<String> getLabels() {
    return labels;
  }

  public void setLabels(List<String> labels) {
    this.labels = labels;
  }

  public Integer getMaxActive() {
    return maxActive;
  }

  public void setMaxActive(Integer maxActive) {
    this.maxActive = maxActive;
  }

  public String getTtl() {
    return ttl;
  }

  public void setTtl(String ttl) {
    this.ttl = ttl;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public Boolean getDecryption() {
    return decryption;
  }

  public void setDecryption(Boolean decryption) {
    this.decryption = decryption;
  }
}
