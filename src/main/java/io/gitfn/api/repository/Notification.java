package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A receiver of a signed JSON POST each time a revision's state changes (pending, success, failure, error), for a
 * chat bridge or an incident tool: the same news as the commit status, to any endpoint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Notification {

  @Required
  @Size(max = 2048)
  @ValidationRule(value = "self.matches('^https?://[^@/]+(/.*)?$')",
      message = "url must be an http(s) URL without credentials")
  @JsonPropertyDescription("Where to POST. Its host must be one the controller may reach (--allowed-git-host).")
  private String url;

  @Required
  @JsonPropertyDescription("A Secret whose key `token` signs each notification: the header X-Gitfn-Signature is"
      + " sha256=<hex HMAC-SHA256 of the body>.")
  private SecretRef secretRef;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }
}
