package io.gitfn.source.verify;

/** A Secret of verification keys that gitfn cannot use; the message names the entry, and the line where it helps. */
public class KeyDataException extends Exception {

  public KeyDataException(String message) {
    super(message);
  }

  public KeyDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
