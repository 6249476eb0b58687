package io.gitfn.rollback;

/** A rollback cannot be done as asked; the message says why and what to do instead, in one line. */
public final class RollbackException extends RuntimeException {

  public RollbackException(String message) {
    super(message);
  }
}
