package io.gitfn.secrets.sops;

import java.util.Objects;

/**
 * One entry of a SOPS file's {@code sops.age} list: an age recipient ({@code age1...}) and the data key encrypted
 * to it, an armored age file. Neither is secret.
 */
public record AgeRecipient(String recipient, String enc) {

  public AgeRecipient {
    Objects.requireNonNull(recipient, "recipient");
    Objects.requireNonNull(enc, "enc");
  }
}
