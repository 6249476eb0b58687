package io.gitfn.secrets.sops;

import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ENC[AES256_GCM,data:...,iv:...,tag:...,type:...]} value as sops' {@code aes/cipher.go} writes it:
 * base64 ciphertext, a 32-byte IV, a 16-byte GCM tag and the plaintext's type. Stricter than sops' reader, which
 * takes any IV length and trailing text: gitfn reads what sops writes and nothing else.
 */
record EncryptedValue(byte[] data, byte[] iv, byte[] tag, String type) {

  static final int IV_BYTES = 32;
  static final int TAG_BYTES = 16;
  private static final String B64 = "[A-Za-z0-9+/]+={0,2}";
  private static final Pattern FORMAT = Pattern.compile(
      "ENC\\[AES256_GCM,data:(" + B64 + "),iv:(" + B64 + "),tag:(" + B64 + "),type:([a-z]{1,16})]");

  /** Whether {@code text} claims to be an encrypted value, well-formed or not. */
  static boolean looksEncrypted(String text) {
    return text.startsWith("ENC[");
  }

  /**
   * Reads {@code text}; a problem is thrown as {@link SopsException.Reason#MALFORMED_VALUE} naming the part at
   * fault. The text itself is never quoted: a value someone forgot to encrypt would be plaintext.
   */
  static EncryptedValue parse(String text, String file, String path) throws SopsException {
    Matcher m = FORMAT.matcher(text);
    if (!m.matches()) {
      throw malformed(file, path, looksEncrypted(text)
          ? "is not a well-formed ENC[AES256_GCM,data:...,iv:...,tag:...,type:...] value; re-encrypt the file with sops"
          : "should be encrypted but is not an ENC[AES256_GCM,...] value; encrypt the file with sops");
    }
    byte[] iv = decode(m.group(2), "iv", file, path);
    if (iv.length != IV_BYTES) {
      throw malformed(file, path, "has an IV of " + iv.length + " bytes; sops writes " + IV_BYTES);
    }
    byte[] tag = decode(m.group(3), "tag", file, path);
    if (tag.length != TAG_BYTES) {
      throw malformed(file, path, "has a GCM tag of " + tag.length + " bytes; sops writes " + TAG_BYTES);
    }
    return new EncryptedValue(decode(m.group(1), "data", file, path), iv, tag, m.group(4));
  }

  private static byte[] decode(String base64, String part, String file, String path) throws SopsException {
    try {
      return Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw malformed(file, path, "has a " + part + " that is not valid base64");
    }
  }

  private static SopsException malformed(String file, String path, String problem) {
    return new SopsException(SopsException.Reason.MALFORMED_VALUE, file, path, problem);
  }

  @Override
  public String toString() {
    return "EncryptedValue[type=" + type + ", " + data.length + " bytes]";
  }
}
