package io.gitfn.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The last revision whose signatures verified. {@code Range} verifies the commits after it, so it lives in status:
 * a restarted controller or a new leader starts from the same commit.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VerificationStatus {

  @JsonPropertyDescription("The revision last verified, like main@sha1:<40 hex>.")
  private String revision;

  @JsonPropertyDescription("The mode it was verified in.")
  private String mode;

  @JsonPropertyDescription("The fingerprint of the key that signed it (SHA256:… for SSH, 40 hex digits for"
      + " OpenPGP).")
  private String keyFingerprint;

  @JsonPropertyDescription("Who the key belongs to: the OpenPGP user ID, or the SSH key's principals or comment.")
  private String signer;

  @JsonPropertyDescription("When it was verified, in RFC 3339.")
  private String time;

  public String getRevision() {
    return revision;
  }

  public void setRevision(String revision) {
    this.revision = revision;
  }

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
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

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }
}
