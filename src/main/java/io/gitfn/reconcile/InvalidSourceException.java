package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;
import static io.gitfn.api.repository.RepositoryConditionReason.SECRET_NOT_FOUND;
import static io.gitfn.api.repository.RepositoryConditionReason.SECRET_UNREADABLE;

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

  /** Whether the Secret is at fault (missing, unreadable or unusable) rather than the spec. */
  boolean aboutSecret() {
    return reason.equals(SECRET_NOT_FOUND) || reason.equals(SECRET_UNREADABLE) || reason.equals(INVALID_SECRET);
  }
}
