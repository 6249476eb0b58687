package io.gitfn.registry;

import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.UnknownHostException;

/** A registry refused, failed or answered what gitfn cannot read; the message says which and what was asked. */
public final class RegistryFailure extends Exception {

  public RegistryFailure(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Whether the registry was not reached, or the connection to it broke or went silent, rather than answered: a
   * later try may succeed. A name that does not resolve is not counted: that is far more often a wrong name than a
   * passing fault, and trying again would only delay saying so.
   */
  public boolean unreachable() {
    for (Throwable cause = getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof UnknownHostException) {
        return false;
      }
      if (cause instanceof SocketException || cause instanceof InterruptedIOException) {
        return true;
      }
    }
    return false;
  }
}
