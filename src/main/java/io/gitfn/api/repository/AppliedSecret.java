package io.gitfn.api.repository;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A Secret a FunctionRepository decrypted from its applied revision and applied; never its values. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppliedSecret {

  @JsonPropertyDescription("The Secret's name, in the repository's namespace.")
  private String name;

  @JsonPropertyDescription("The file it was decrypted from, relative to the repository's root.")
  private String file;

  @JsonPropertyDescription("The age recipient (age1…) whose identity opened it.")
  private String recipient;

  public AppliedSecret() {}

  public AppliedSecret(String name, String file, String recipient) {
    this.name = name;
    this.file = file;
    this.recipient = recipient;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getFile() {
    return file;
  }

  public void setFile(String file) {
    this.file = file;
  }

  public String getRecipient() {
    return recipient;
  }

  public void setRecipient(String recipient) {
    this.recipient = recipient;
  }
}
