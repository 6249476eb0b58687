package io.gitfn.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Secret's content as one SHA-256: its keys in order, each with its decoded value, every part preceded by its
 * length so that no two contents give the same bytes. The controller puts it in the Pod templates of the Functions
 * that use the Secret, so that they roll when its content changes and only then: {@code type}, labels and the file's
 * encryption (a re-encryption, a new recipient) are not part of it. It shows no value, but a value short enough to
 * guess (a PIN) can be tried against it, as against any unkeyed hash.
 */
final class ContentDigest {

  private ContentDigest() {}

  /** @param data the Secret's {@code data}: keys and base64 values, as checked by {@link SecretValidator} */
  static String of(Map<String, String> data) {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    for (Map.Entry<String, String> entry : new TreeMap<>(data).entrySet()) {
      part(sha256, entry.getKey().getBytes(StandardCharsets.UTF_8));
      part(sha256, Base64.getDecoder().decode(entry.getValue()));
    }
    return HexFormat.of().formatHex(sha256.digest());
  }

  private static void part(MessageDigest digest, byte[] bytes) {
    digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    digest.update(bytes);
  }
}
