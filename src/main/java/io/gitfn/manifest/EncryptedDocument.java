package io.gitfn.manifest;

import java.util.Arrays;
import java.util.Objects;

/**
 * A SOPS-encrypted Secret of the revision, as its file holds it. The reader neither decrypts nor checks it (it has no
 * keys, and stays pure); {@code io.gitfn.secrets} does both. The content is the whole file, byte for byte, because
 * sops' MAC covers the file whole.
 *
 * @param line the 1-based line its document starts on, for messages
 * @param content the file's bytes; copied in and out, so that no caller changes what another reads
 */
public record EncryptedDocument(String file, int line, byte[] content) {

  public EncryptedDocument {
    Objects.requireNonNull(file, "file");
    if (line < 0) {
      throw new IllegalArgumentException("line must be 0 (none) or more, not " + line);
    }
    content = content.clone();
  }

  @Override
  public byte[] content() {
    return content.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EncryptedDocument that && file.equals(that.file) && line == that.line
        && Arrays.equals(content, that.content);
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, line, Arrays.hashCode(content));
  }

  /** The file and its size: the content is ciphertext, but some values sops may leave in clear. */
  @Override
  public String toString() {
    return "EncryptedDocument[" + file + (line > 0 ? ":" + line : "") + ", " + content.length + " bytes]";
  }
}
