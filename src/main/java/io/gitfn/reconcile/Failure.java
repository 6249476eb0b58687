package io.gitfn.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.reconcile.sync.SyncRefusedException;
import io.gitfn.source.SourceException;
import java.io.IOException;

/**
 * The error taxonomy both reconcilers share. A failure stalls when only a person can fix it: an invalid spec,
 * Secret or revision, a Git error that waiting will not mend (a deleted branch, revoked credentials), an apply
 * the rules or the API server refuse. Anything else (a timeout, a network or API server error) may pass by itself,
 * and the pass is retried soon.
 */
final class Failure {

  private Failure() {}

  /** Whether the next pass must wait for a person, rather than try again by itself. */
  static boolean stalls(Exception e) {
    if (e instanceof SourceException source) {
      return !source.recoverable();
    }
    if (e instanceof IOException && e.getCause() instanceof SourceException source) {
      return !source.recoverable(); // a snapshot's read, which the manifest reader sees as IOException
    }
    return e instanceof InvalidSourceException
        || e instanceof InvalidManifestException
        || e instanceof BuildContextTooLargeException
        || e instanceof SyncRefusedException;
  }

  /** The message a condition shows: a Git failure inside an IOException says what Git said. */
  static String message(Exception e) {
    if (e instanceof IOException && e.getCause() instanceof SourceException source) {
      return source.getMessage();
    }
    if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
      return k.getStatus().getMessage();
    }
    return e.getMessage();
  }
}
