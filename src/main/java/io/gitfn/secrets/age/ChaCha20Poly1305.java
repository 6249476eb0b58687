package io.gitfn.secrets.age;

import java.security.GeneralSecurityException;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** RFC 8439's AEAD, opened with the JDK's {@code ChaCha20-Poly1305} cipher and no additional data, as age uses it. */
final class ChaCha20Poly1305 {

  static final int NONCE_LENGTH = 12;
  static final int TAG_LENGTH = 16;

  private ChaCha20Poly1305() {}

  /** The plaintext of {@code ciphertext[offset, offset + length)}, or empty when it does not authenticate. */
  static Optional<byte[]> open(byte[] key, byte[] nonce, byte[] ciphertext, int offset, int length) {
    try {
      Cipher cipher = Cipher.getInstance("ChaCha20-Poly1305");
      cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
      return Optional.of(cipher.doFinal(ciphertext, offset, length));
    } catch (AEADBadTagException e) {
      return Optional.empty();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's ChaCha20-Poly1305 is missing or refused a 32-byte key", e);
    }
  }
}
