package io.gitfn.dashboard;

/** An action that cannot be made as asked, such as a pin to a revision with no image; the message says why. */
public final class ActionRefusedException extends RuntimeException {

  public ActionRefusedException(String message) {
    super(message);
  }
}
