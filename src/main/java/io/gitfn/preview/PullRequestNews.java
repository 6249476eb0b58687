package io.gitfn.preview;

import java.util.Map;
import java.util.Set;

/**
 * What gitfn learnt about a repository's pull requests since its last plan.
 *
 * @param open pull requests known to be open, as they are now
 * @param closed pull requests known to be closed or merged, each with what happened ("was merged")
 * @param complete whether {@code open} is the forge's whole list: then a preview of a pull request not in it is
 *     removed. Webhooks alone are never complete, and a preview they say nothing of stays as it is.
 * @param fresh the pull requests of {@code open} that a webhook just told of (opened, pushed to, labelled): only
 *     these may push a running preview out. One the list shows that gitfn does not remember takes a free place
 *     only, or a repository with more qualifying pull requests than gitfn remembers would swap its previews at
 *     every listing.
 */
public record PullRequestNews(Map<Long, PullRequest> open, Map<Long, String> closed, boolean complete,
    Set<Long> fresh) {

  public PullRequestNews {
    open = Map.copyOf(open);
    closed = Map.copyOf(closed);
    fresh = Set.copyOf(fresh);
  }

  /** News in which every open pull request is fresh, as webhooks bring it. */
  public PullRequestNews(Map<Long, PullRequest> open, Map<Long, String> closed, boolean complete) {
    this(open, closed, complete, complete ? Set.of() : open.keySet());
  }

  public static PullRequestNews none() {
    return new PullRequestNews(Map.of(), Map.of(), false, Set.of());
  }
}
