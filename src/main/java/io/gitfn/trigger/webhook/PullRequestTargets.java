package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.List;

/**
 * Where a verified pull-request delivery goes: the previews of the FunctionRepositories it verified for
 * ({@code io.gitfn.reconcile.repository.PreviewDeliveries}), or nowhere ({@link #NOT_ENABLED}) in tests of the
 * receiver.
 * Called at most once per delivery id, after the delivery verified, and never for {@link
 * PullRequestChange.Action#OTHER}.
 */
public interface PullRequestTargets {

  /** The answer while nothing handles pull requests. */
  PullRequestTargets NOT_ENABLED =
      (change, baseRepository, verifiedBy) -> "pull-request event; previews are not enabled, nothing to do";

  /**
   * Acts on a pull request and says what it did, for the reply's {@code result}.
   *
   * @param baseRepository every address the payload gives for the base repository
   * @param verifiedBy the sources of the base repository whose secret verified the delivery (those without a secret
   *     of their own when the controller-wide secret did); a preview may be made for these only, since the others'
   *     owners did not sign it. Empty when only the controller-wide secret verified and every source has its own.
   */
  String changed(PullRequestChange change, List<RepositoryUrl> baseRepository, List<WebhookTarget> verifiedBy);
}
