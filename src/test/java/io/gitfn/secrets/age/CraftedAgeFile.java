package io.gitfn.secrets.age;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes age files by hand, for the headers the age tool will not write (an scrypt stanza without typing a
 * passphrase, unknown stanza types, 65 stanzas, a low-order share), with a correct MAC and payload so that each
 * test reaches the rule it is about. Files the age tool can write come from {@link AgeTool} instead.
 */
final class CraftedAgeFile {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder UNPADDED = Base64.getEncoder().withoutPadding();

  private final byte[] fileKey = random(16);
  private final List<String> stanzas = new ArrayList<>();

  /** An X25519 stanza that {@code recipient}'s identity opens. */
  CraftedAgeFile x25519(AgeIdentity recipient) {
    byte[] ephemeral = random(32);
    byte[] share = X25519.publicKey(ephemeral);
    byte[] publicKey = recipient.publicKey();
    byte[] salt = new byte[64];
    System.arraycopy(share, 0, salt, 0, 32);
    System.arraycopy(publicKey, 0, salt, 32, 32);
    try {
      byte[] wrapKey = Hkdf.sha256(X25519.sharedSecret(ephemeral, publicKey), salt, "age-encryption.org/v1/X25519");
      return stanza("X25519", List.of(UNPADDED.encodeToString(share)), seal(wrapKey, new byte[12], fileKey));
    } catch (InvalidKeyException e) {
      throw new AssertionError(e);
    }
  }

  /** A stanza with any type, arguments and body, written as age writes stanzas. */
  CraftedAgeFile stanza(String type, List<String> args, byte[] body) {
    StringBuilder text = new StringBuilder("-> ").append(type);
    args.forEach(arg -> text.append(' ').append(arg));
    text.append('\n');
    String encoded = UNPADDED.encodeToString(body);
    int at = 0;
    do {
      int end = Math.min(at + 64, encoded.length());
      text.append(encoded, at, end).append('\n');
      at += 64;
    } while (at <= encoded.length());
    stanzas.add(text.toString());
    return this;
  }

  /** The binary file: header with its MAC, nonce, and {@code plaintext} as one last chunk. */
  byte[] write(byte[] plaintext) {
    StringBuilder header = new StringBuilder("age-encryption.org/v1\n");
    stanzas.forEach(header::append);
    header.append("---");
    byte[] headerBytes = header.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] mac = Hkdf.hmac(Hkdf.sha256(fileKey, new byte[0], "header"), headerBytes);
    byte[] nonce = random(16);
    byte[] chunkNonce = new byte[12];
    chunkNonce[11] = 1;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(headerBytes);
    out.writeBytes((" " + UNPADDED.encodeToString(mac) + "\n").getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(nonce);
    out.writeBytes(seal(Hkdf.sha256(fileKey, nonce, "payload"), chunkNonce, plaintext));
    return out.toByteArray();
  }

  static byte[] random(int length) {
    byte[] bytes = new byte[length];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  private static byte[] seal(byte[] key, byte[] nonce, byte[] plaintext) {
    try {
      Cipher cipher = Cipher.getInstance("ChaCha20-Poly1305");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
      return cipher.doFinal(plaintext);
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
