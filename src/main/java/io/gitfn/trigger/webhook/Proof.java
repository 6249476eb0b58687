package io.gitfn.trigger.webhook;

import java.util.HexFormat;
import java.util.Optional;

/** What a delivery presents to show that its sender knows the secret. Checked by {@link SignatureVerifier}. */
sealed interface Proof {

  /** An HMAC-SHA256 of the raw body, keyed with the secret. */
  record HmacSha256(byte[] mac) implements Proof {}

  /** The secret itself (GitLab). */
  record Token(String token) implements Proof {}

  /** Nothing usable; {@code why} tells the sender what was wrong. */
  record Absent(String why) implements Proof {}

  /** A header of the form {@code sha256=<hex>} (GitHub, Bitbucket, generic). */
  static Proof prefixedHmac(Headers headers, String header) {
    Optional<String> value = headers.get(header);
    if (value.isEmpty()) {
      return new Absent("header " + header + " is missing: the delivery is not signed");
    }
    String v = value.get();
    int eq = v.indexOf('=');
    if (eq < 0 || !v.substring(0, eq).equals("sha256")) {
      return new Absent("header " + header + " must be sha256=<hex>; other algorithms are not accepted");
    }
    return hex(header, v.substring(eq + 1));
  }

  /** A header holding the bare hex HMAC (Gitea and Forgejo). */
  static Proof bareHmac(Headers headers, String... headerNames) {
    for (String header : headerNames) {
      Optional<String> value = headers.get(header);
      if (value.isPresent()) {
        return hex(header, value.get());
      }
    }
    return new Absent("header " + String.join(" or ", headerNames) + " is missing: the delivery is not signed");
  }

  private static Proof hex(String header, String hex) {
    // 32 bytes of HMAC-SHA256 are 64 hex digits; anything else cannot verify.
    if (hex.length() != 64) {
      return new Absent("header " + header + " does not hold a hex HMAC-SHA256");
    }
    try {
      return new HmacSha256(HexFormat.of().parseHex(hex));
    } catch (IllegalArgumentException e) {
      return new Absent("header " + header + " does not hold a hex HMAC-SHA256");
    }
  }
}
