package io.gitfn.notify;

import java.net.http.HttpHeaders;
import java.util.Map;
import java.util.Objects;

/**
 * What came of one request, with as much of the answer as the sender kept: what the clients that read from a forge
 * (pull requests, comments) need beyond a {@link SendResult}.
 *
 * @param result whether the request got through, as {@link CommitStatusSender#send} says it
 * @param headers the answer's headers; none when no answer came
 * @param body the answer's body, at most the cap the sender was given; copied in and out
 * @param cut whether the server had more to say than the cap let the sender keep
 */
record ForgeAnswer(SendResult result, HttpHeaders headers, byte[] body, boolean cut) {

  private static final HttpHeaders NO_HEADERS = HttpHeaders.of(Map.of(), (name, value) -> true);

  ForgeAnswer {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(headers, "headers");
    body = body.clone();
  }

  /** The outcome of a request no answer came to. */
  static ForgeAnswer none(SendResult result) {
    return new ForgeAnswer(result, NO_HEADERS, new byte[0], false);
  }

  @Override
  public byte[] body() {
    return body.clone();
  }
}
