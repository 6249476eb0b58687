package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A push webhook from a forge that starts reconciliation at once; polling stays on as the safety net. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Webhook {

  @Required
  @JsonPropertyDescription("A Secret with the shared secret the forge signs or sends its deliveries with.")
  private SecretRef secretRef;

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }
}
