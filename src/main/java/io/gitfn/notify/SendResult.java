package io.gitfn.notify;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What came of sending one request. No field ever holds a credential: the sender masks the request's own in the
 * server's answer.
 *
 * @param outcome whether the request got through, and if not, whether sending again can help
 * @param statusCode the HTTP status the server answered with, or 0 when no answer came
 * @param detail for {@link Outcome#REJECTED}, a short excerpt of the server's answer (control characters removed,
 *     at most 200 characters); for {@link Outcome#RETRY}, the cause; for {@link Outcome#SENT}, empty or a note
 * @param retryAfter how long the server asked to be left alone (Retry-After, or GitHub's rate-limit reset)
 */
public record SendResult(Outcome outcome, int statusCode, String detail, Optional<Duration> retryAfter) {

  /** Whether the request got through, and if not, whether sending it again can help. */
  public enum Outcome {
    /** The server took the request (2xx). */
    SENT,
    /**
     * The server refused the request and will refuse it again until a person fixes the token, the URL or the
     * forge's settings (400, 401, 403, 404, 422, a redirect, ...).
     */
    REJECTED,
    /** The server or the network failed in a way that may pass by itself (429, 5xx, timeouts, I/O errors). */
    RETRY
  }

  public SendResult {
    Objects.requireNonNull(outcome, "outcome");
    detail = detail == null ? "" : detail;
    retryAfter = retryAfter == null ? Optional.empty() : retryAfter;
  }

  static SendResult sent(int statusCode, String note) {
    return new SendResult(Outcome.SENT, statusCode, note, Optional.empty());
  }

  static SendResult rejected(int statusCode, String excerpt) {
    return new SendResult(Outcome.REJECTED, statusCode, excerpt, Optional.empty());
  }

  static SendResult retry(int statusCode, String cause, Optional<Duration> retryAfter) {
    return new SendResult(Outcome.RETRY, statusCode, cause, retryAfter);
  }

  /** Whether the server answered at all. */
  public boolean answered() {
    return statusCode > 0;
  }

  /** Such as {@code REJECTED 401: Bad credentials} or {@code RETRY: api.github.com did not answer within 10s}. */
  @Override
  public String toString() {
    return outcome + (answered() ? " " + statusCode : "") + (detail.isEmpty() ? "" : ": " + detail)
        + retryAfter.map(d -> " (retry after " + d.toSeconds() + "s)").orElse("");
  }
}
