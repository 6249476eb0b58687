package io.gitfn.reconcile;

import io.gitfn.api.Conditions;

/**
 * Hands a pass back to the SDK to be retried with backoff ({@link Requeue#backoff}), after its status showed why.
 * The SDK logs it once per attempt; only a failure nobody foresaw carries its cause, whose stack trace is worth a
 * look.
 */
public final class RetryLater extends Exception {

  RetryLater(String resource, StepFailure.Retry failure) {
    super(resource + ": " + failure.reason() + ": " + failure.getMessage(),
        Conditions.RECONCILIATION_FAILED.equals(failure.reason()) ? failure.getCause() : null, false, false);
  }
}
