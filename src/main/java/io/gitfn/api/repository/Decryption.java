package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * How to decrypt the SOPS-encrypted Secrets of a revision, in the words of Flux's Kustomization
 * {@code spec.decryption}. docs/security.md#encrypted-secrets has the layout.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Decryption {

  @Default("sops")
  @Pattern("^sops$")
  @JsonPropertyDescription("The encryption format; sops is the only one.")
  private String provider;

  @Required
  @JsonPropertyDescription("A Secret whose *.agekey entries hold age identities (AGE-SECRET-KEY-1…), one or more a"
      + " line, as age-keygen writes them; several identities let keys rotate.")
  private SecretRef secretRef;

  public Decryption() {}

  public Decryption(String provider, SecretRef secretRef) {
    this.provider = provider;
    this.secretRef = secretRef;
  }

  public String getProvider() {
    return provider;
  }

  public void setProvider(String provider) {
    this.provider = provider;
  }

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }
}
