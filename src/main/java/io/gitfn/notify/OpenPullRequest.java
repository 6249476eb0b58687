package io.gitfn.notify;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An open pull request (a merge request on GitLab) as its forge lists it.
 *
 * @param number its number in the repository: GitHub's and Gitea's number, GitLab's iid, Bitbucket's id
 * @param headSha the commit at its head, lower-case hex; Bitbucket Cloud lists only the first 12 characters
 * @param headRef the branch it comes from, without {@code refs/heads/}
 * @param baseRef the branch it would merge into, without {@code refs/heads/}
 * @param labels its labels' names; always empty on Bitbucket, which has none
 * @param fromFork whether its head is in another repository than its base (a fork, whose code gitfn should not run
 *     without someone's say-so); a head repository the forge no longer knows counts as a fork
 * @param updated when the forge last saw it change
 */
public record OpenPullRequest(long number, String headSha, String headRef, String baseRef, List<String> labels,
    boolean fromFork, Instant updated) {

  // Bitbucket Cloud abbreviates to 12 characters; SHA-256 repositories have 64.
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{7,64}");

  public OpenPullRequest {
    if (number <= 0) {
      throw new IllegalArgumentException("a pull request's number is positive, not " + number);
    }
    Objects.requireNonNull(headSha, "headSha");
    if (!SHA.matcher(headSha).matches()) {
      throw new IllegalArgumentException("pull request " + number + ": head `" + Excerpt.clean(headSha)
          + "` is not a commit's hex name");
    }
    Objects.requireNonNull(headRef, "headRef");
    Objects.requireNonNull(baseRef, "baseRef");
    labels = List.copyOf(labels);
    Objects.requireNonNull(updated, "updated");
  }
}
