package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One pull request's preview, as its repository's status lists it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Preview {

  @JsonPropertyDescription("The pull request's number.")
  private Long number;

  @JsonPropertyDescription("The head commit the preview applies.")
  private String headSha;

  @JsonPropertyDescription("The pull request's head branch.")
  private String headRef;

  @JsonPropertyDescription("The namespace the preview runs in.")
  private String namespace;

  @JsonPropertyDescription("The FunctionRepository, beside this one, that applies it.")
  private String repository;

  @JsonPropertyDescription("Where the preview answers: its route's host, or its first Function's Service address in"
      + " the cluster.")
  private String url;

  @JsonPropertyDescription("Pending, Running, Failed, Stopped (by spec.previews.ttl or to make room under maxActive;"
      + " its namespace is removed and a push brings it back) or Removed (its pull request closed; kept until the"
      + " comment says so).")
  private String phase;

  @JsonPropertyDescription("What the phase means for this preview, as the pull request's comment says it.")
  private String message;

  @JsonPropertyDescription("When gitfn first made this preview (RFC 3339).")
  private String createdAt;

  @JsonPropertyDescription("When the preview last got a new head commit (RFC 3339); spec.previews.ttl counts from"
      + " it.")
  private String pushedAt;

  @JsonPropertyDescription("The phase and message the pull request's comment last said, once the forge took it.")
  private String commented;

  public Preview() {}

  public Long getNumber() {
    return number;
  }

  public void setNumber(Long number) {
    this.number = number;
  }

  public String getHeadSha() {
    return headSha;
  }

  public void setHeadSha(String headSha) {
    this.headSha = headSha;
  }

  public String getHeadRef() {
    return headRef;
  }

  public void setHeadRef(String headRef) {
    this.headRef = headRef;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getRepository() {
    return repository;
  }

  public void setRepository(String repository) {
    this.repository = repository;
  }

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getCreatedAt() {
    return createdAt;
  }

  public void setCreatedAt(String createdAt) {
    this.createdAt = createdAt;
  }

  public String getPushedAt() {
    return pushedAt;
  }

  public void setPushedAt(String pushedAt) {
    this.pushedAt = pushedAt;
  }

  public String getCommented() {
    return commented;
  }

  public void setCommented(String commented) {
    this.commented = commented;
  }
}
