package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One attempt to apply a revision of a FunctionRepository, and how many Functions it changed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SyncRecord {

  @JsonPropertyDescription("The revision, like main@sha1:<40 hex>.")
  private String revision;

  @JsonPropertyDescription("When this happened, in RFC 3339.")
  private String time;

  @JsonPropertyDescription("What happened, such as Applied or Failed.")
  private String outcome;

  @JsonPropertyDescription("The first line of the commit's message, cut at 200 characters.")
  private String message;

  @JsonPropertyDescription("The name of the commit's author, cut at 100 characters.")
  private String author;

  @JsonPropertyDescription("When the author wrote the commit, as the commit says, in RFC 3339.")
  private String commitTime;

  @JsonPropertyDescription("With spec.verify: the fingerprint of the key that signed the revision.")
  private String keyFingerprint;

  @JsonPropertyDescription("With spec.verify: who the signing key belongs to, cut at 100 characters.")
  private String signer;

  @JsonPropertyDescription("How many Functions were created.")
  private Integer created;

  @JsonPropertyDescription("How many Functions were updated.")
  private Integer updated;

  @JsonPropertyDescription("How many Functions were deleted.")
  private Integer deleted;

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getAuthor() {
    return author;
  }

  public void setAuthor(String author) {
    this.author = author;
  }

  public String getCommitTime() {
    return commitTime;
  }

  public void setCommitTime(String commitTime) {
    this.commitTime = commitTime;
  }

  public String getRevision() {
    return revision;
  }

  public void setRevision(String revision) {
    this.revision = revision;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public String getOutcome() {
    return outcome;
  }

  public void setOutcome(String outcome) {
    this.outcome = outcome;
  }

  public Integer getCreated() {
    return created;
  }

  public void setCreated(Integer created) {
    this.created = created;
  }

  public Integer getUpdated() {
    return updated;
  }

  public void setUpdated(Integer updated) {
    this.updated = updated;
  }

  public Integer getDeleted() {
    return deleted;
  }

  public void setDeleted(Integer deleted) {
    this.deleted = deleted;
  }

  public String getKeyFingerprint() {
    return keyFingerprint;
  }

  public void setKeyFingerprint(String keyFingerprint) {
    this.keyFingerprint = keyFingerprint;
  }

  public String getSigner() {
    return signer;
  }

  public void setSigner(String signer) {
    this.signer = signer;
  }
}
