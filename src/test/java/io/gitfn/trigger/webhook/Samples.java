package io.gitfn.trigger.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** The forge payload samples under src/test/resources/io/gitfn/trigger/webhook, and how senders sign them. */
final class Samples {

  private Samples() {}

  static byte[] read(String name) {
    try (InputStream in = Samples.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no sample " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The bare hex HMAC-SHA256 a forge computes over the body. */
  static String hmacHex(String secret, byte[] body) {
    return HexFormat.of().formatHex(SignatureVerifier.hmacSha256(secret, body));
  }

  /** {@code sha256=<hex>}, as GitHub, Bitbucket and generic senders put it. */
  static String sha256Header(String secret, byte[] body) {
    return "sha256=" + hmacHex(secret, body);
  }
}
