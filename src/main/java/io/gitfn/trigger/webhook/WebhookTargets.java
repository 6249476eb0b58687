package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.List;

/** The sources a push can trigger: the rest of gitfn answers which ones track a repository and ref. */
public interface WebhookTargets {

  /**
   * Every source that tracks this repository (compared by {@link RepositoryUrl#matchKey()}), whatever its ref:
   * their secrets decide whether a delivery is verified at all, and {@link WebhookTarget#moves} which of them it
   * triggers.
   */
  List<WebhookTarget> tracking(RepositoryUrl repository);
}
