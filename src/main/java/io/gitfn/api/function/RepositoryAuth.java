package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** The credentials for a Function's Git repository: a Secret in the Function's namespace, and its kind. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RepositoryAuth {

  @Required
  @JsonPropertyDescription("basic for a username with a password or token, key for an SSH private key.")
  private AuthType type;

  @Required
  @ValidationRule(value = "self.trim().size() != 0", message = "SecretName is required and cannot be empty")
  @JsonPropertyDescription("Name of the Secret, in the Function's namespace, that holds the credentials.")
  private String secretName;

  public AuthType getType() {
    return type;
  }

  public void setType(AuthType type) {
    this.type = type;
  }

  public String getSecretName() {
    return secretName;
  }

  public void setSecretName(String secretName) {
    this.secretName = secretName;
  }
}
