package io.gitfn.trigger.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/** Reads a request body up to a limit, so an oversized delivery never sits in memory whole. */
final class BoundedBody {

  private BoundedBody() {}

  /**
   * The body, or empty when it is larger than {@code limit}: at once when the declared length (-1 if unknown)
   * says so, otherwise after reading at most {@code limit + 1} bytes.
   */
  static Optional<byte[]> read(InputStream in, long declaredLength, long limit) throws IOException {
    if (declaredLength > limit) {
      return Optional.empty();
    }
    byte[] body = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
    return body.length > limit ? Optional.empty() : Optional.of(body);
  }
}
