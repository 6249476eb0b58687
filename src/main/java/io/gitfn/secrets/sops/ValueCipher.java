package io.gitfn.secrets.sops;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** Opens one {@link EncryptedValue} with the data key: AES-256-GCM over the JDK, as sops' {@code aes} package. */
final class ValueCipher {

  private final SecretKeySpec key;

  ValueCipher(byte[] dataKey) {
    this.key = new SecretKeySpec(dataKey, "AES");
  }

  /**
   * The plaintext bytes, or null when the tag does not verify against {@code additionalData}: sops authenticates
   * each value with its key path ({@code a:b:c:}) and the MAC with the {@code lastmodified} timestamp.
   */
  byte[] open(EncryptedValue value, String additionalData) {
    try {
      Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(EncryptedValue.TAG_BYTES * 8, value.iv()));
      gcm.updateAAD(additionalData.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = new byte[value.data().length + value.tag().length];
      System.arraycopy(value.data(), 0, sealed, 0, value.data().length);
      System.arraycopy(value.tag(), 0, sealed, value.data().length, value.tag().length);
      return gcm.doFinal(sealed);
    } catch (AEADBadTagException e) {
      return null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no AES/GCM/NoPadding", e);
    }
  }
}
