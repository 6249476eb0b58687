package io.gitfn.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A page's version: a digest of the record it is rendered from, equal for equal pages, so that a browser asking
 * again is told "unchanged" (304) and neither the page nor its rendering travels. Records print every field.
 */
final class Versions {

  static String of(Record page) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(page.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private Versions() {}
}
