package io.gitfn.secrets.age;

import java.security.InvalidKeyException;

/**
 * An age X25519 identity: a secret scalar and the recipient it answers to. Not a record, so that neither an
 * accessor nor {@code toString} can hand the scalar out; it shows as its recipient.
 */
public final class AgeIdentity {

  private final byte[] scalar;
  private final byte[] publicKey;
  private final AgeRecipient recipient;

  AgeIdentity(byte[] scalar) {
    if (scalar.length != X25519.LENGTH) {
      throw new IllegalArgumentException("an X25519 scalar is 32 bytes");
    }
    this.scalar = scalar.clone();
    this.publicKey = X25519.publicKey(this.scalar);
    this.recipient = AgeRecipient.ofPublicKey(publicKey);
  }

  /** The {@code age1...} recipient files are encrypted to for this identity to open them. */
  public AgeRecipient recipient() {
    return recipient;
  }

  byte[] publicKey() {
    return publicKey.clone();
  }

  byte[] sharedSecret(byte[] ephemeralShare) throws InvalidKeyException {
    return X25519.sharedSecret(scalar, ephemeralShare);
  }

  @Override
  public String toString() {
    return "AgeIdentity[" + recipient + "]";
  }
}
