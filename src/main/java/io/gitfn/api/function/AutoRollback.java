package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * gitfn's addition to a Function's status: a version that failed to roll out, and the one gitfn put back. While it
 * is set, the failed content key is quarantined: gitfn does not roll it out again until the spec asks for another
 * key, or a new {@code gitfn.io/requested-at} asks to try it again.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AutoRollback {

  @JsonPropertyDescription("The content key that failed, and is not tried again.")
  private String failedContentKey;

  @JsonPropertyDescription("The source revision it came from.")
  private String failedRevision;

  @JsonPropertyDescription("Why it failed: the Running reason, such as DeploymentFailed, CrashLooping or"
      + " DependencyInstallFailed.")
  private String reason;

  @JsonPropertyDescription("The Running message at the failure.")
  private String message;

  @JsonPropertyDescription("The content key put back: the newest in the history that rolled out.")
  private String restoredContentKey;

  @JsonPropertyDescription("The revision it came from.")
  private String restoredRevision;

  @JsonPropertyDescription("When gitfn rolled back, in RFC 3339.")
  private String time;

  @JsonPropertyDescription("The Function's gitfn.io/requested-at when gitfn rolled back; another value tries the"
      + " failed key again.")
  private String handledRequestedAt;

  public String getHandledRequestedAt() {
    return handledRequestedAt;
  }

  public void setHandledRequestedAt(String handledRequestedAt) {
    this.handledRequestedAt = handledRequestedAt;
  }

  public String getFailedContentKey() {
    return failedContentKey;
  }

  public void setFailedContentKey(String failedContentKey) {
    this.failedContentKey = failedContentKey;
  }

  public String getFailedRevision() {
    return failedRevision;
  }

  public void setFailedRevision(String failedRevision) {
    this.failedRevision = failedRevision;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getRestoredContentKey() {
    return restoredContentKey;
  }

  public void setRestoredContentKey(String restoredContentKey) {
    this.restoredContentKey = restoredContentKey;
  }

  public String getRestoredRevision() {
    return restoredRevision;
  }

  public void setRestoredRevision(String restoredRevision) {
    this.restoredRevision = restoredRevision;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }
}
