package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The webhook delivery a FunctionRepository last acted on, so a user can match it with the forge's log. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebhookReceipt {

  @JsonPropertyDescription("The forge that sent it, such as github, gitlab, gitea or bitbucket.")
  private String forge;

  @JsonPropertyDescription("The forge's id of the delivery.")
  private String deliveryId;

  @JsonPropertyDescription("When it arrived, in RFC 3339.")
  private String time;

  @JsonPropertyDescription("The revision it announced.")
  private String revision;

  public String getForge() {
    return forge;
  }

  public void setForge(String forge) {
    this.forge = forge;
  }

  public String getDeliveryId() {
    return deliveryId;
  }

  public void setDeliveryId(String deliveryId) {
    this.deliveryId = deliveryId;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public String getRevision() {
    return revision;
  }

  public void setRevision(String revision) {
    this.revision = revision;
  }
}
