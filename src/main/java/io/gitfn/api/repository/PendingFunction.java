package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A Function of the applied revision that does not run it yet, or failed to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PendingFunction {

  @JsonPropertyDescription("The Function's name.")
  private String name;

  @JsonPropertyDescription("The Function's namespace.")
  private String namespace;

  @JsonPropertyDescription("RollingOut while it is built or rolled out, Failed when a condition of it is False.")
  private String phase;

  @JsonPropertyDescription("The reason of the Function's condition that decided the phase, such as JobRunning.")
  private String reason;

  @JsonPropertyDescription("That condition's message.")
  private String message;

  public PendingFunction() {}

  public PendingFunction(String name, String namespace, String phase, String reason, String message) {
    this.name = name;
    this.namespace = namespace;
    this.phase = phase;
    this.reason = reason;
    this.message = message;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
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
}
