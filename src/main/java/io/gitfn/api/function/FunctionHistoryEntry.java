package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * One source revision a Function was built or rolled out from. The content key lets a revert find the image
 * it already built.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FunctionHistoryEntry {

  @JsonPropertyDescription("The source revision, like main@sha1:<40 hex>, or inline for inline sources.")
  private String revision;

  @JsonPropertyDescription("The hash of everything that goes into the image; the image tag.")
  private String contentKey;

  @JsonPropertyDescription("The image built for this revision.")
  private String image;

  @JsonPropertyDescription("When this happened, in RFC 3339.")
  private String time;

  @JsonPropertyDescription("What happened: Succeeded (the image was built: the controller pushed its source layer,"
      + " after an install Job where its dependencies needed one), Reused (the image was known, so nothing was built)"
      + " or Failed (the build failed; the Deployment kept its image).")
  private String outcome;

  @JsonPropertyDescription("When this version first rolled out (every replica Ready), in RFC 3339; automatic"
      + " rollback returns only to a version that did.")
  private String rolledOut;

  public String getRolledOut() {
    return rolledOut;
  }

  public void setRolledOut(String rolledOut) {
    this.rolledOut = rolledOut;
  }

  public String getRevision() {
    return revision;
  }

  public void setRevision(String revision) {
    this.revision = revision;
  }

  public String getContentKey() {
    return contentKey;
  }

  public void setContentKey(String contentKey) {
    this.contentKey = contentKey;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
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
}
