package io.gitfn.secrets.age;

import io.gitfn.secrets.age.AgeException.MalformedPayload;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * An age payload: a 16-byte nonce, then STREAM (ChaCha20-Poly1305 over 64 KiB chunks, nonce = 11-byte big-endian
 * chunk counter and a last-chunk flag byte) under HKDF(file key, nonce, "payload"). The flag is what makes a file
 * cut at a chunk boundary fail, so a payload opens only if its last chunk says it is last and nothing follows.
 */
final class Payload {

  static final int NONCE_LENGTH = 16;
  private static final int CHUNK = 64 * 1024;
  private static final int ENCRYPTED_CHUNK = CHUNK + ChaCha20Poly1305.TAG_LENGTH;

  private Payload() {}

  static byte[] open(byte[] fileKey, byte[] file, int offset) throws MalformedPayload {
    if (file.length - offset < NONCE_LENGTH) {
      throw new MalformedPayload("age payload: it ends inside its 16-byte nonce; the file was cut short");
    }
    byte[] key = Hkdf.sha256(fileKey, Arrays.copyOfRange(file, offset, offset + NONCE_LENGTH), "payload");
    ByteArrayOutputStream plaintext = new ByteArrayOutputStream();
    int position = offset + NONCE_LENGTH;
    for (long chunk = 0; ; chunk++) {
      int left = file.length - position;
      if (left == 0) {
        throw new MalformedPayload(chunk == 0
            ? "age payload: it ends after its nonce, before any chunk; the file was cut short"
            : "age payload: it ends after chunk " + (chunk - 1) + ", which is not marked last; the file was cut short");
      }
      int length = Math.min(left, ENCRYPTED_CHUNK);
      boolean last = length < ENCRYPTED_CHUNK;
      if (last && chunk > 0 && length == ChaCha20Poly1305.TAG_LENGTH) {
        throw new MalformedPayload("age payload: its last chunk is empty, which age never writes");
      }
      Optional<byte[]> opened = ChaCha20Poly1305.open(key, nonce(chunk, last), file, position, length);
      if (opened.isEmpty() && !last) {
        last = true;
        opened = ChaCha20Poly1305.open(key, nonce(chunk, true), file, position, length);
      }
      if (opened.isEmpty()) {
        throw new MalformedPayload("age payload: chunk " + chunk
            + " does not authenticate; the file was changed or cut short");
      }
      plaintext.writeBytes(opened.get());
      position += length;
      if (last) {
        if (position != file.length) {
          throw new MalformedPayload("age payload: " + (file.length - position) + " bytes after its last chunk");
        }
        return plaintext.toByteArray();
      }
    }
  }

  private static byte[] nonce(long chunk, boolean last) {
    byte[] nonce = new byte[ChaCha20Poly1305.NONCE_LENGTH];
    for (int i = 0; i < Long.BYTES; i++) {
      nonce[ChaCha20Poly1305.NONCE_LENGTH - 2 - i] = (byte) (chunk >>> (8 * i));
    }
    nonce[ChaCha20Poly1305.NONCE_LENGTH - 1] = (byte) (last ? 1 : 0);
    return nonce;
  }
}
