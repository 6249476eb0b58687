package io.gitfn.registry;

/** A registry refused, failed or answered what gitfn cannot read; the message says which and what was asked. */
public final class RegistryFailure extends Exception {

  public RegistryFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
