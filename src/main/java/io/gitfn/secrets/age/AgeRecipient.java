package io.gitfn.secrets.age;

/**
 * An age X25519 recipient, {@code age1...}: the Bech32 form of a public key, as {@code age-keygen -y} prints it
 * and as a SOPS file lists it beside each wrapped data key. It is public; status and messages may show it.
 */
public record AgeRecipient(String value) {

  static final String HRP = "age";

  public AgeRecipient {
    if (value == null) {
      throw new IllegalArgumentException("an age recipient needs a value");
    }
    Bech32.Decoded decoded;
    try {
      decoded = Bech32.decode(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("age recipient " + value + " is malformed: " + e.getMessage(), e);
    }
    if (!decoded.hrp().equals(HRP) || decoded.data().length != X25519.LENGTH) {
      throw new IllegalArgumentException("age recipient " + value + " is not age1 followed by a 32-byte key");
    }
  }

  static AgeRecipient ofPublicKey(byte[] publicKey) {
    return new AgeRecipient(Bech32.encode(HRP, publicKey));
  }

  @Override
  public String toString() {
    return value;
  }
}
