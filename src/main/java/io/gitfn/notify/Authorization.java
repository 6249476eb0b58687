package io.gitfn.notify;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The Authorization header values the forges take. No message here ever quotes a token. */
final class Authorization {

  private Authorization() {}

  /** The token without surrounding whitespace, or an exception saying (without it) why it cannot be sent. */
  static String checked(String token, Forge forge) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("the " + forge.title() + " token for commit statuses is empty");
    }
    String stripped = token.strip();
    if (stripped.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
      throw new IllegalArgumentException("the " + forge.title()
          + " token for commit statuses has a space or a control character inside it");
    }
    return stripped;
  }

  static String bearer(String token) {
    return "Bearer " + token;
  }

  /**
   * Basic auth for {@code user:password} (Bitbucket app passwords, API tokens with an e-mail address), a bearer
   * token otherwise (repository, project and workspace access tokens). A bearer token has no colon in it.
   */
  static String basicOrBearer(String token) {
    if (token.indexOf(':') > 0) {
      return "Basic " + Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8));
    }
    return bearer(token);
  }
}
