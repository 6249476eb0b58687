package io.gitfn.notify;

import java.util.Objects;

/**
 * A read from, or a write to, a forge's pull requests that did not come through. Its message names the request
 * (never its token) and what went wrong; its {@link #result()} says whether trying again can help.
 */
public final class ForgeException extends RuntimeException {

  private final transient SendResult result;

  ForgeException(String message, SendResult result) {
    super(message);
    this.result = Objects.requireNonNull(result, "result");
  }

  /** A request the forge did not take, or that no answer came to. */
  static ForgeException failed(ForgeRequest request, SendResult result) {
    return new ForgeException(request.named() + ": " + result, result);
  }

  /**
   * An answer gitfn cannot use: too large, not the JSON it should be, or endless. Asking again gets the same answer,
   * so it is {@link SendResult.Outcome#REJECTED}: a person has to look at the forge (or at what stands in for it).
   */
  static ForgeException unusable(String where, int statusCode, String problem) {
    return new ForgeException(where + ": " + problem, SendResult.rejected(statusCode, problem));
  }

  /** Whether the request was refused for good, or may pass when sent again, and after how long. */
  public SendResult result() {
    return result;
  }
}
