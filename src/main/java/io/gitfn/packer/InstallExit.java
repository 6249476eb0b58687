package io.gitfn.packer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The end of the install that runs beside the pack container in an install Job's Pod: the file its script writes
 * its exit code to as it ends ({@code DependencyInstallJob.EXIT_FILE}), renamed into place whole. The pack
 * container waits for it while its JVM warms up, instead of starting after the install.
 *
 * <p>The wait has no deadline of its own: the Job's {@code activeDeadlineSeconds} (the build deadline) stops the Pod,
 * the wait with it, and an install may legitimately run for most of it. The file is read up to
 * {@value #MAX_BYTES} bytes, since the install runs the tenant's package scripts, which can write there too.
 */
public final class InstallExit {

  /** How often the file is looked for: a small share of the second or more an install takes. */
  static final Duration POLL = Duration.ofMillis(25);
  static final int MAX_BYTES = 16;

  private InstallExit() {}

  /**
   * Waits until {@code file} is there, and gives the exit code it holds.
   *
   * @throws IOException when the file holds no exit code
   */
  public static int await(Path file) throws IOException, InterruptedException {
    while (true) {
      try (InputStream in = Files.newInputStream(file)) {
        return parse(file, in.readNBytes(MAX_BYTES + 1));
      } catch (NoSuchFileException e) {
        Thread.sleep(POLL.toMillis());
      }
    }
  }

  static int parse(Path file, byte[] bytes) throws IOException {
    String text = new String(bytes, 0, Math.min(bytes.length, MAX_BYTES), StandardCharsets.US_ASCII).strip();
    if (bytes.length > MAX_BYTES || !text.matches("[0-9]{1,3}")) {
      throw new IOException(file + " should hold the install's exit code, and holds "
          + (bytes.length > MAX_BYTES ? "more than " + MAX_BYTES + " bytes"
            : "'" + text.replaceAll("[^\\x20-\\x7e]", "?") + "'"));
    }
    return Integer.parseInt(text);
  }
}
