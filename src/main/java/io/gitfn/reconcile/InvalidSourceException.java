package io.gitfn.reconcile;

/**
 * A Git source spec or its Secret that only a person can fix: an unparsable URL or ref, a missing Secret, one
 * without the keys its auth type needs. The resource stalls until its spec or Secret changes.
 *
 * @see SourceBinding
 */
final class InvalidSourceException extends Exception {

  private final String reason;

  InvalidSourceException(String reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** The condition reason a FunctionRepository shows, such as {@code SecretNotFound}. */
  String reason() {
    return reason;
  }
}
