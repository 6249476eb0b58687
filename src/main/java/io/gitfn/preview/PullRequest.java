package io.gitfn.preview;

import java.util.List;
import java.util.Objects;

/**
 * A pull request as the previews judge it, from a webhook or the forge's list.
 *
 * @param headSha its head commit; Bitbucket Cloud gives 12 hex digits, every other forge the whole name
 * @param labels its labels' names; Bitbucket has none
 * @param fromFork whether its head is in another repository (unknown counts as a fork)
 */
public record PullRequest(long number, String headSha, String headRef, String baseRef, List<String> labels,
    boolean fromFork) {

  public PullRequest {
    Objects.requireNonNull(headSha, "headSha");
    Objects.requireNonNull(headRef, "headRef");
    Objects.requireNonNull(baseRef, "baseRef");
    labels = List.copyOf(labels);
  }

  /** Whether {@code sha} names this pull request's head, also when one of the two is abbreviated. */
  public boolean headIs(String sha) {
    return sha != null && !sha.isEmpty() && (sha.startsWith(headSha) || headSha.startsWith(sha));
  }
}
