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

  /** A sample with each {@code from} text replaced by the {@code to} after it, which must all be in it. */
  static byte[] edited(String name, String... fromTo) {
    String text = new String(read(name), StandardCharsets.UTF_8);
    for (int i = 0; i < fromTo.length; i += 2) {
      if (!text.contains(fromTo[i])) {
        throw new IllegalArgumentException("sample " + name + " has no " + fromTo[i]);
      }
      text = text.replace(fromTo[i], fromTo[i + 1]);
    }
    return bytes(text);
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
