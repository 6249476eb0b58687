package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * Which signatures a revision needs before it is applied, in the words of Flux's GitRepository {@code spec.verify}
 * plus the mode {@code Range}. docs/security.md#signed-commits has the Secret's layout and the mode table.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Verify {

  @Default("HEAD")
  @Pattern("^(HEAD|Tag|TagAndHEAD|Range)$")
  @JsonPropertyDescription("What must be signed: HEAD (the commit deployed), Tag (the annotated tag ref.tag or"
      + " ref.semver names), TagAndHEAD (both), or Range (every commit since the last verified revision).")
  private String mode;

  @Required
  @JsonPropertyDescription("A Secret with the trusted public keys: *.asc entries (armored OpenPGP keys), *.sshpub"
      + " entries (authorized_keys lines) and an optional allowed_signers entry; entries named *.forge.asc or"
      + " *.forge.sshpub hold a forge's key, trusted only for merges of signed commits.")
  private SecretRef secretRef;

  public Verify() {}

  public Verify(String mode, SecretRef secretRef) {
    this.mode = mode;
    this.secretRef = secretRef;
  }

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }

  public SecretRef getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretRef secretRef) {
    this.secretRef = secretRef;
  }
}
