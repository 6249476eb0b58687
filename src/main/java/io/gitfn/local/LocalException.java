package io.gitfn.local;

/** Something local mode cannot do for one Function; the message says what and why, and the others go on. */
public final class LocalException extends Exception {

  public LocalException(String message) {
    super(message);
  }
}
