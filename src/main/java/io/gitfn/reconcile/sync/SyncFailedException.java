package io.gitfn.reconcile.sync;

/**
 * A sync that the API server failed part-way, after the dry run accepted everything: a timeout, a lost
 * connection, an object changed under it. Transient, so a retry of the same revision is expected to finish it;
 * {@link #partial()} says what was written before the failure.
 */
public final class SyncFailedException extends RuntimeException {

  private final transient SyncResult partial;

  public SyncFailedException(String message, SyncResult partial, Throwable cause) {
    super(message, cause);
    this.partial = partial;
  }

  public SyncResult partial() {
    return partial;
  }
}
