package io.gitfn.preview;

import java.util.Map;

/**
 * What gitfn learnt about a repository's pull requests since its last plan.
 *
 * @param open pull requests known to be open, as they are now
 * @param closed pull requests known to be closed or merged, each with what happened ("was merged")
 * @param complete whether {@code open} is the forge's whole list: then a preview of a pull request not in it is
 *     removed. Webhooks alone are never complete, and a preview they say nothing of stays as it is.
 */
public record PullRequestNews(Map<Long, PullRequest> open, Map<Long, String> closed, boolean complete) {

  public PullRequestNews {
    open = Map.copyOf(open);
    closed = Map.copyOf(closed);
  }

  public static PullRequestNews none() {
    return new PullRequestNews(Map.of(), Map.of(), false);
  }
}
