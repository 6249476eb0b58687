package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.List;

/** The sources a push can trigger: the rest of gitfn answers which ones track a repository and ref. */
public interface WebhookTargets {

  /**
   * Every source that tracks this repository (compared by {@link RepositoryUrl#matchKey()}) and would move
   * when this ref moves. The receiver still verifies each one's secret before triggering it.
   */
  List<WebhookTarget> matching(RepositoryUrl repository, String ref);
}
