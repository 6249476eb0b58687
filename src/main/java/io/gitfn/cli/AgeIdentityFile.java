package io.gitfn.cli;

import io.gitfn.secrets.age.AgeException;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.secrets.age.AgeIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A file of age identities as {@code age-keygen} writes it and {@code age -i} reads it, for {@code --age-identity}.
 * Read up to {@link #MAX_BYTES}: a path given by mistake (a log, a device) is refused, not read whole.
 */
final class AgeIdentityFile {

  /** A thousand identities of 74 characters, with age-keygen's comments: more than anyone keeps in one file. */
  static final int MAX_BYTES = 256 * 1024;

  private AgeIdentityFile() {}

  /** @throws IOException when the file is not there or too large; the message says which */
  static List<AgeIdentity> read(Path file) throws IOException, AgeException.MalformedIdentity {
    if (!Files.isRegularFile(file)) {
      throw new IOException("is not a file");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw new IOException("larger than " + MAX_BYTES + " bytes; an age identity file holds a few lines");
    }
    // A byte that is not UTF-8 becomes U+FFFD, which no identity line has: the parser names that line.
    return AgeIdentities.parse(file.getFileName().toString(), new String(bytes, StandardCharsets.UTF_8));
  }
}
