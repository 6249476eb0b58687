package io.gitfn.api.function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Secret of the Function's namespace mounted read-only into its container. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretMount {

  @Required
  @Size(min = 1, max = 253)
  @JsonPropertyDescription("The name of the Secret in the Function's namespace.")
  private String secretName;

  @Required
  @Size(min = 1)
  @JsonPropertyDescription("The path in the container where the Secret is mounted.")
  private String mountPath;

  public String getSecretName() {
    return secretName;
  }

  public void setSecretName(String secretName) {
    this.secretName = secretName;
  }

  public String getMountPath() {
    return mountPath;
  }

  public void setMountPath(String mountPath) {
    this.mountPath = mountPath;
  }
}
