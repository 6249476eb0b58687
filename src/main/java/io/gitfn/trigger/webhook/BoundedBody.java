package io.gitfn.trigger.webhook;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Reads a request body up to a limit and a deadline, so an oversized delivery never sits in memory whole and a slow
 * sender cannot hold a delivery slot for long. Each read waits at most the connection's idle timeout.
 */
final class BoundedBody {

  private static final int CHUNK = 16 * 1024;

  private BoundedBody() {}

  /**
   * The body, or empty when it is larger than {@code limit}: at once when the declared length (-1 if unknown)
   * says so, otherwise after reading at most {@code limit + 1} bytes.
   *
   * @throws SlowSenderException when the body has not arrived whole by {@code deadline} ({@link System#nanoTime})
   */
  static Optional<byte[]> read(InputStream in, long declaredLength, long limit, long deadline) throws IOException {
    if (declaredLength > limit) {
      return Optional.empty();
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.min(Math.max(declaredLength, CHUNK), limit + 1));
    byte[] chunk = new byte[CHUNK];
    while (body.size() <= limit) {
      if (System.nanoTime() - deadline > 0) {
        throw new SlowSenderException();
      }
      int read = in.read(chunk, 0, (int) Math.min(chunk.length, limit + 1 - body.size()));
      if (read < 0) {
        return Optional.of(body.toByteArray());
      }
      body.write(chunk, 0, read);
    }
    return Optional.empty();
  }

  /** The sender did not send its body within the read timeout. */
  static final class SlowSenderException extends IOException {
    SlowSenderException() {
      super("the body did not arrive within the read timeout");
    }
  }
}
