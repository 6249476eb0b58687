package io.gitfn.secrets.age;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * RFC 5869's HKDF with HMAC-SHA-256, for the one length age derives: 32 bytes, a single expand block. The JDK 17
 * has HMAC but no HKDF.
 */
final class Hkdf {

  static final int LENGTH = 32;

  private Hkdf() {}

  /** The first 32 bytes of HKDF-SHA-256(ikm, salt, info); an empty salt stands for 32 zero bytes, as RFC 5869 says. */
  static byte[] sha256(byte[] ikm, byte[] salt, String info) {
    byte[] pseudoRandomKey = hmac(salt.length == 0 ? new byte[LENGTH] : salt, ikm);
    byte[] infoBytes = info.getBytes(StandardCharsets.US_ASCII);
    byte[] firstBlockInput = new byte[infoBytes.length + 1];
    System.arraycopy(infoBytes, 0, firstBlockInput, 0, infoBytes.length);
    firstBlockInput[infoBytes.length] = 1;
    return hmac(pseudoRandomKey, firstBlockInput);
  }

  /** HMAC-SHA-256 of {@code message} under {@code key} (which must not be empty: the JDK refuses an empty key). */
  static byte[] hmac(byte[] key, byte[] message) {
    return hmac(key, message, 0, message.length);
  }

  static byte[] hmac(byte[] key, byte[] message, int offset, int length) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update(message, offset, length);
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's HmacSHA256 is missing", e);
    }
  }
}
