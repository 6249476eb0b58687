package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Conditions;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.reconcile.sync.SyncRefusedException;
import io.gitfn.source.SourceException;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;

/**
 * The error taxonomy both kinds share, applied in one place: {@link #classify} turns whatever a step threw into a
 * {@link StepFailure}. A failure stalls when only a person can fix it: an invalid spec, Secret or revision, a Git
 * error that waiting will not mend (a deleted branch, revoked credentials), an apply the rules or the API server
 * refuse. Anything else (a timeout, a network or API server error, an exception nobody expected) may pass by itself,
 * and the pass is retried with backoff.
 */
public final class Failures {

  private Failures() {}

  /**
   * What {@code e}, thrown by {@code step}, means. A {@link StepFailure} means what it says; a typed failure that
   * stalls keeps its message; anything else is retried, with a message naming the step and what went wrong.
   */
  public static StepFailure classify(Exception e, String step) {
    if (e instanceof StepFailure failure) {
      return failure;
    }
    if (stalls(e)) {
      return StepFailure.stalled(Conditions.RECONCILIATION_FAILED, message(e));
    }
    return StepFailure.retry(Conditions.RECONCILIATION_FAILED, "the " + step + " step failed and is retried with"
        + " backoff: " + describe(e), e);
  }

  /** Whether the next pass must wait for a person, rather than try again by itself. */
  public static boolean stalls(Exception e) {
    if (e instanceof SourceException source) {
      return !source.recoverable();
    }
    if (e instanceof IOException && e.getCause() instanceof SourceException source) {
      return !source.recoverable(); // a snapshot's read, which the manifest reader sees as IOException
    }
    return e instanceof InvalidManifestException
        || e instanceof BuildContextTooLargeException
        || e instanceof SyncRefusedException;
  }

  /**
   * Whether an API error is the caller's to fix: it was refused for who asks (401, 403 other than a quota's), not
   * for how the server is doing. A quota, a conflict, a timeout, throttling, a server error or no answer at all
   * may pass.
   */
  public static boolean refused(KubernetesClientException e) {
    int code = e.getCode();
    return code == HttpURLConnection.HTTP_UNAUTHORIZED
        || code == HttpURLConnection.HTTP_FORBIDDEN && !String.valueOf(message(e)).contains("exceeded quota");
  }

  /**
   * The message a condition shows: a Git failure inside an IOException says what Git said; an API error, what the
   * API server said, or when it said nothing (it did not answer) why the client gave up.
   */
  public static String message(Exception e) {
    if (e instanceof IOException && e.getCause() instanceof SourceException source) {
      return source.getMessage();
    }
    if (e instanceof KubernetesClientException k) {
      if (k.getStatus() != null && k.getStatus().getMessage() != null) {
        return k.getStatus().getMessage();
      }
      // No answer from the server: why the client gave up is in the causes (a refused connection, a timeout).
      List<String> causes = new ArrayList<>();
      for (Throwable cause = k.getCause(); cause != null && causes.size() < 3; cause = cause.getCause()) {
        causes.add(cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
      }
      return causes.isEmpty() ? k.getMessage() : k.getMessage() + " (" + String.join("; ", causes) + ")";
    }
    return e.getMessage();
  }

  // An exception nobody expected may have no message (a NullPointerException): its type says most then.
  private static String describe(Exception e) {
    String message = message(e);
    return message == null || message.isBlank() ? e.getClass().getName() : message;
  }
}
