package io.gitfn.reconcile;

/**
 * The one place a pass's status and Events leave the controller. It writes the status only when it differs from what
 * the object showed ({@link StatusDraft#finish}), makes the next pass read this write even before the informer has
 * it, and records the pass's Events ({@link StatusDraft#events}) once the write landed.
 */
public interface StatusWriter {

  /**
   * Makes the API server show the pass's status, then records its Events.
   *
   * @throws RuntimeException what the API server answered, when it refused or failed the write; no Event is
   *     recorded then, and the pass is retried
   */
  void write(PassState<?, ?> state);
}
