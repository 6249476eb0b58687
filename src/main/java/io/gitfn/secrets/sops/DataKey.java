package io.gitfn.secrets.sops;

import java.util.Arrays;
import java.util.Objects;

/**
 * A SOPS file's 32-byte data key, as an age identity unwrapped it, and the recipient whose entry it came from (the
 * status reports which one matched, so that an operator rotating keys sees which is still in use).
 */
public record DataKey(byte[] key, String recipient) {

  public static final int LENGTH = 32;

  public DataKey {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(recipient, "recipient");
    if (key.length != LENGTH) {
      throw new IllegalArgumentException("a SOPS data key has " + LENGTH + " bytes, not " + key.length);
    }
    key = key.clone();
  }

  @Override
  public byte[] key() {
    return key.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DataKey that && Arrays.equals(key, that.key) && recipient.equals(that.recipient);
  }

  @Override
  public int hashCode() {
    return recipient.hashCode();
  }

  @Override
  public String toString() {
    return "DataKey[recipient=" + recipient + ", key=(hidden)]";
  }
}
