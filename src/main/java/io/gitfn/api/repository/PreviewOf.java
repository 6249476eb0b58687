package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * On a FunctionRepository gitfn made for a pull request's preview: which repository and pull request it previews
 * and the namespace it applies into. gitfn writes it; a namespace is written into only when gitfn made it for this
 * repository's namespace (its {@code gitfn.io/preview-of} label says so), so setting it by hand gains nothing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PreviewOf {

  @Required
  @Size(max = 253)
  @JsonPropertyDescription("The FunctionRepository, in this namespace, whose pull request this previews.")
  private String repository;

  @Required
  @Min(1)
  @JsonPropertyDescription("The pull request's number.")
  private Long pullRequest;

  @Required
  @Size(max = 63)
  @JsonPropertyDescription("The namespace the preview applies into, which gitfn made and deletes with it.")
  private String namespace;

  @Size(max = 255)
  @JsonPropertyDescription("The pull request's head branch.")
  private String headRef;

  @Size(max = 253)
  @JsonPropertyDescription("The host template of the preview's routes, the previewed repository's"
      + " spec.previews.host; unset: the preview applies no routes.")
  private String host;

  public PreviewOf() {}

  public PreviewOf(String repository, Long pullRequest, String namespace, String headRef, String host) {
    this.repository = repository;
    this.pullRequest = pullRequest;
    this.namespace = namespace;
    this.headRef = headRef;
    this.host = host;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public String getRepository() {
    return repository;
  }

  public void setRepository(String repository) {
    this.repository = repository;
  }

  public Long getPullRequest() {
    return pullRequest;
  }

  public void setPullRequest(Long pullRequest) {
    this.pullRequest = pullRequest;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getHeadRef() {
    return headRef;
  }

  public void setHeadRef(String headRef) {
    this.headRef = headRef;
  }
}
