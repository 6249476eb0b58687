package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Where to report each revision's outcome as a commit status on the forge that hosts the repository: pending while
 * it is applied and rolled out, success once it runs, failure with the reason when it does not.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CommitStatus {

  @Required
  @JsonPropertyDescription("A Secret with the forge's API token in the key `token` (for Bitbucket an app password"
      + " as `user:password`).")
  private SecretRef secretRef;

  @Pattern("^(github|gitlab|gitea|forgejo|bitbucket|bitbucket-server)$")
  @JsonPropertyDescription("The forge: github, gitlab, gitea, forgejo, bitbucket or bitbucket-server. Derived from"
      + " the URL's host for github.com, gitlab.com, bitbucket.org, codeberg.org and gitea.com; required for any"
      + " other host.")
  private String forge;

  @Size(max = 2048)
  @ValidationRule(value = "self.matches('^https?://[^@/]+(/.*)?$')",
      message = "apiURL must be an http(s) URL without credentials")
  @JsonPropertyDescription("The forge's API base, for a self-hosted forge whose API is not where gitfn derives it"
      + " (like https://ghe.example.com/api/v3). Its host must be one the controller may fetch from.")
  private String apiURL;

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }

  public String getForge() {
    return forge;
  }

  public void setForge(String forge) {
    this.forge = forge;
  }

  public String getApiURL() {
    return apiURL;
  }

  public void setApiURL(String apiURL) {
    this.apiURL = apiURL;
  }
}
