package io.gitfn.secrets.age;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.KeyAgreement;

/**
 * RFC 7748's X25519 over the JDK's {@code XDH} provider, on age's byte strings: 32-byte little-endian scalars and
 * u-coordinates. The JDK wants the u-coordinate as a number, so the bytes are turned around, with the top bit
 * cleared as RFC 7748 says a receiver must.
 */
final class X25519 {

  static final int LENGTH = 32;
  private static final byte[] BASE_POINT = new byte[LENGTH];

  static {
    BASE_POINT[0] = 9;
  }

  private X25519() {}

  /** The public key of {@code scalar}: X25519(scalar, 9). */
  static byte[] publicKey(byte[] scalar) {
    try {
      return sharedSecret(scalar, BASE_POINT);
    } catch (InvalidKeyException e) {
      throw new IllegalStateException("the base point gave a low-order result", e);
    }
  }

  /**
   * X25519(scalar, point); throws {@link InvalidKeyException} when {@code point} has small order, so that the result
   * would be all zeros (the JDK refuses it, as age's Go code does).
   */
  static byte[] sharedSecret(byte[] scalar, byte[] point) throws InvalidKeyException {
    try {
      KeyFactory keys = KeyFactory.getInstance("X25519");
      KeyAgreement agreement = KeyAgreement.getInstance("X25519");
      agreement.init(keys.generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, scalar)));
      agreement.doPhase(keys.generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, uCoordinate(point))), true);
      return agreement.generateSecret();
    } catch (InvalidKeyException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's X25519 is missing or refused a well-formed key", e);
    }
  }

  private static BigInteger uCoordinate(byte[] point) {
    byte[] bigEndian = new byte[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      bigEndian[i] = point[LENGTH - 1 - i];
    }
    bigEndian[0] &= 0x7f;
    return new BigInteger(1, bigEndian);
  }
}
