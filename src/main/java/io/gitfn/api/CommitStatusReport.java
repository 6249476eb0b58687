package io.gitfn.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The last commit status gitfn sent, or tried to send, to the forge, for a FunctionRepository or a Function. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CommitStatusReport {

  @JsonPropertyDescription("The revision it is about, like main@sha1:<40 hex>.")
  private String revision;

  @JsonPropertyDescription("pending, success, failure or error.")
  private String state;

  @JsonPropertyDescription("The status's context on the forge: gitfn/<cluster>/<namespace>/<name> for a"
      + " FunctionRepository, gitfn/<cluster>/<namespace>/function/<name> for a Function.")
  private String context;

  @JsonPropertyDescription("Sent when the forge accepted it; Retrying, or Rejected when the forge refused it (a"
      + " token or URL to fix).")
  private String result;

  @JsonPropertyDescription("Why the last attempt failed, if it did.")
  private String error;

  @JsonPropertyDescription("When the last attempt ended, in RFC 3339.")
  private String time;

  public String getRevision() {
    return revision;
  }

  public void setRevision(String revision) {
    this.revision = revision;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public String getContext() {
    return context;
  }

  public void setContext(String context) {
    this.context = context;
  }

  public String getResult() {
    return result;
  }

  public void setResult(String result) {
    this.result = result;
  }

  public String getError() {
    return error;
  }

  public void setError(String error) {
    this.error = error;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }
}
