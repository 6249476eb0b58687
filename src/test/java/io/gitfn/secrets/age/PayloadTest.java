package io.gitfn.secrets.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gitfn.secrets.age.AgeException.MalformedPayload;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * STREAM beyond one chunk. {@link AgeFile} bounds files well below 64 KiB, so only here do payloads of several
 * chunks, and a final chunk of exactly 64 KiB, reach the reader.
 */
class PayloadTest {

  private static final int CHUNK = 64 * 1024;
  private final byte[] fileKey = CraftedAgeFile.random(16);
  private final byte[] nonce = CraftedAgeFile.random(16);

  @Test
  void opensSeveralChunksEndingShortOrFull() throws Exception {
    for (int length : new int[] {CHUNK + 5, 2 * CHUNK, CHUNK}) {
      byte[] plaintext = CraftedAgeFile.random(length);

      assertThat(Payload.open(fileKey, payload(plaintext, true), 0)).as(length + " bytes").isEqualTo(plaintext);
    }
  }

  @Test
  void refusesAPayloadCutAtAChunkBoundary() {
    byte[] payload = payload(CraftedAgeFile.random(CHUNK + 5), true);
    byte[] cut = Arrays.copyOf(payload, Payload.NONCE_LENGTH + CHUNK + ChaCha20Poly1305.TAG_LENGTH);

    assertThat(catchThrowableOfType(() -> Payload.open(fileKey, cut, 0), MalformedPayload.class))
        .hasMessage("age payload: it ends after chunk 0, which is not marked last; the file was cut short");
  }

  @Test
  void refusesAnEmptyLastChunkAfterAFullOne() {
    byte[] payload = payload(CraftedAgeFile.random(CHUNK), false);

    assertThat(catchThrowableOfType(() -> Payload.open(fileKey, payload, 0), MalformedPayload.class))
        .hasMessage("age payload: its last chunk is empty, which age never writes");
  }

  /**
   * The nonce and the chunks of {@code plaintext}; a plaintext of whole chunks ends with a full chunk marked last
   * when {@code fullLast}, as age writes it, or else with an empty one.
   */
  private byte[] payload(byte[] plaintext, boolean fullLast) {
    byte[] key = Hkdf.sha256(fileKey, nonce, "payload");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(nonce);
    int chunks = fullLast ? Math.max(1, (plaintext.length + CHUNK - 1) / CHUNK) : plaintext.length / CHUNK + 1;
    for (int chunk = 0; chunk < chunks; chunk++) {
      int from = Math.min(chunk * CHUNK, plaintext.length);
      int to = Math.min(from + CHUNK, plaintext.length);
      out.writeBytes(seal(key, chunk, chunk == chunks - 1, Arrays.copyOfRange(plaintext, from, to)));
    }
    return out.toByteArray();
  }

  private static byte[] seal(byte[] key, int chunk, boolean last, byte[] plaintext) {
    byte[] nonce = new byte[12];
    nonce[10] = (byte) chunk;
    nonce[11] = (byte) (last ? 1 : 0);
    try {
      Cipher cipher = Cipher.getInstance("ChaCha20-Poly1305");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
      return cipher.doFinal(plaintext);
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
