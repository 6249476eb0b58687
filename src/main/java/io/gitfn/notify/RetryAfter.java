package io.gitfn.notify;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** How long a server asked to be left alone, from the headers of its answer. */
final class RetryAfter {

  private RetryAfter() {}

  /**
   * Retry-After (seconds or an HTTP date), else the reset of a used-up rate limit ({@code x-ratelimit-remaining: 0}
   * with {@code x-ratelimit-reset} in epoch seconds, as GitHub and Gitea send them); never negative.
   */
  static Optional<Duration> of(HttpHeaders headers, Instant now) {
    Optional<String> retryAfter = headers.firstValue("Retry-After").map(String::strip);
    if (retryAfter.isPresent()) {
      return retryAfter.flatMap(value -> parse(value, now));
    }
    if (rateLimitUsedUp(headers)) {
      return headers.firstValue("X-RateLimit-Reset").flatMap(RetryAfter::epochSeconds)
          .map(reset -> positive(Duration.between(now, reset)));
    }
    return Optional.empty();
  }

  /**
   * Whether the answer says a rate limit was hit. GitHub answers a used-up rate limit with 403 as well as 429, and
   * that 403 passes by itself: it is no wrong token.
   */
  static boolean rateLimited(HttpHeaders headers) {
    return headers.firstValue("Retry-After").isPresent() || rateLimitUsedUp(headers);
  }

  private static boolean rateLimitUsedUp(HttpHeaders headers) {
    return headers.firstValue("X-RateLimit-Remaining").map(String::strip).filter("0"::equals).isPresent();
  }

  private static Optional<Duration> parse(String value, Instant now) {
    if (value.chars().allMatch(Character::isDigit) && !value.isEmpty() && value.length() <= 9) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
    }
    try {
      Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return Optional.of(positive(Duration.between(now, at)));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Instant> epochSeconds(String value) {
    String v = value.strip();
    if (v.isEmpty() || v.length() > 12 || !v.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochSecond(Long.parseLong(v)));
  }

  private static Duration positive(Duration duration) {
    return duration.isNegative() ? Duration.ZERO : duration;
  }
}
