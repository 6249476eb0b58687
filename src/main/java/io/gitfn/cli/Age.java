package io.gitfn.cli;

import java.time.Duration;
import java.time.Instant;

/** Ages as kubectl prints them: {@code 45s}, {@code 3m}, {@code 2h}, {@code 4d}, {@code 2y}. */
final class Age {

  private Age() {}

  static String since(String rfc3339, Instant now) {
    if (rfc3339 == null || rfc3339.isBlank()) {
      return "<unknown>";
    }
    return of(Duration.between(Instant.parse(rfc3339), now));
  }

  static String of(Duration age) {
    long seconds = age.getSeconds();
    // kubectl tolerates a second of clock skew between the client and the API server.
    if (seconds < -1) {
      return "<invalid>";
    }
    if (seconds < 60) {
      return Math.max(seconds, 0) + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m";
    }
    if (seconds < 86_400) {
      return seconds / 3600 + "h";
    }
    if (seconds < 365L * 86_400) {
      return seconds / 86_400 + "d";
    }
    return seconds / (365L * 86_400) + "y";
  }
}
