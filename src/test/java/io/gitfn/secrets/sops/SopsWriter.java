package io.gitfn.secrets.sops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes a flat SOPS YAML file the way sops 3 does (AES-256-GCM with a 32-byte IV, the key path as authenticated
 * data, the MAC over the values encrypted with {@code lastmodified}), for the cases no real sops file can show: a
 * wrong IV length, an unknown type. It shares no code with the reader; that the reader reads the real sops' files
 * is what the fixtures under {@code src/test/resources/io/gitfn/secrets/sops} show.
 */
final class SopsWriter {

  static final String LAST_MODIFIED = "2026-11-29T10:00:00Z";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] key;
  private final List<String[]> entries = new ArrayList<>();

  SopsWriter(byte[] key) {
    this.key = key.clone();
  }

  /** A {@code stringData} entry encrypted as sops does. */
  SopsWriter stringData(String name, String value) {
    entries.add(new String[] {name, value});
    return this;
  }

  String yaml() {
    return yaml(32, "str");
  }

  /** The file, each value with an IV of {@code ivBytes} and the type {@code type}. */
  String yaml(int ivBytes, String type) {
    StringBuilder out = new StringBuilder("apiVersion: ENC_API\nkind: ENC_KIND\nstringData:\n");
    MessageDigest mac = sha512();
    String api = enc("v1", "apiVersion:", 32, "str");
    String kind = enc("Secret", "kind:", 32, "str");
    mac.update("v1".getBytes(StandardCharsets.UTF_8));
    mac.update("Secret".getBytes(StandardCharsets.UTF_8));
    for (String[] entry : entries) {
      out.append("    ").append(entry[0]).append(": ")
          .append(enc(entry[1], "stringData:" + entry[0] + ":", ivBytes, type)).append('\n');
      mac.update(entry[1].getBytes(StandardCharsets.UTF_8));
    }
    String macText = HexFormat.of().withUpperCase().formatHex(mac.digest());
    out.append("sops:\n    age:\n        - recipient: age1test\n          enc: unused\n")
        .append("    lastmodified: \"").append(LAST_MODIFIED).append("\"\n")
        .append("    mac: ").append(enc(macText, LAST_MODIFIED, 32, "str")).append('\n')
        .append("    unencrypted_suffix: _unencrypted\n    version: 3.13.3\n");
    return out.toString().replace("ENC_API", api).replace("ENC_KIND", kind);
  }

  DataKeySource keys() {
    return recipients -> new DataKey(key, recipients.get(0).recipient());
  }

  String enc(String plaintext, String additionalData, int ivBytes, String type) {
    try {
      byte[] iv = new byte[ivBytes];
      RANDOM.nextBytes(iv);
      Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
      gcm.updateAAD(additionalData.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = gcm.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      Base64.Encoder b64 = Base64.getEncoder();
      return "ENC[AES256_GCM,data:" + b64.encodeToString(Arrays.copyOf(sealed, sealed.length - 16))
          + ",iv:" + b64.encodeToString(iv)
          + ",tag:" + b64.encodeToString(Arrays.copyOfRange(sealed, sealed.length - 16, sealed.length))
          + ",type:" + type + "]";
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static MessageDigest sha512() {
    try {
      return MessageDigest.getInstance("SHA-512");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
