package io.gitfn.trigger.webhook;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a pull-request (merge-request) delivery says about the pull request, in the same terms for every forge.
 * Every field is bounded, so a hostile payload can hand on no more than a few kilobytes.
 *
 * @param number the pull request's number in its base repository (GitLab's {@code iid}, not its global id)
 * @param action what happened, reduced to what gitfn cares about
 * @param headSha the head commit; full on every forge but Bitbucket Cloud, which sends a 12-digit short hash
 * @param headRef the head branch's name, such as {@code feature/x} (not a full ref)
 * @param baseRef the base branch's name, such as {@code main}
 * @param labels the label names, at most {@link #MAX_LABELS} of them; always empty on Bitbucket, which has none
 * @param fromFork whether the head branch lives in another repository than the base (also when the forge no longer
 *     names the head repository, such as a deleted fork: unknown counts as a fork)
 * @param title the title, cut to {@link #MAX_TITLE} characters; for messages only, never for decisions
 * @param author who opened it (on GitLab, who caused the event: its payload names the author by id only); for
 *     messages only, cut to {@link #MAX_AUTHOR} characters
 */
public record PullRequestChange(
    long number,
    Action action,
    String headSha,
    String headRef,
    String baseRef,
    List<String> labels,
    boolean fromFork,
    String title,
    String author) {

  /** What happened to the pull request. */
  public enum Action {
    OPENED,
    /** The head branch has a new commit. */
    UPDATED,
    /** Labels were added or removed; {@link #labels()} holds the labels after the change. */
    LABELED,
    /** Closed without merging (Bitbucket: declined, or deleted on Server). */
    CLOSED,
    MERGED,
    REOPENED,
    /** Anything else (edited, assigned, reviewed, ...): read and verified, then answered 200 and left alone. */
    OTHER
  }

  /**
   * GitHub allows 100 labels on an issue or pull request and GitLab's and Gitea's pages show about as many; a
   * pull request with more is cut to the first ones, in the forge's order.
   */
  static final int MAX_LABELS = 100;
  /** GitLab's limit on a label's title, the longest of the forges (GitHub allows 50); longer is refused. */
  static final int MAX_LABEL = 255;
  static final int MAX_TITLE = 256;
  /** GitLab's limit on a username, the longest of the forges (GitHub allows 39). */
  static final int MAX_AUTHOR = 255;
  /** Git refuses no long branch name, but the forges' web pages and APIs stop at 255 bytes. */
  static final int MAX_BRANCH = 255;

  private static final Pattern SHA = Pattern.compile("[0-9a-f]{7,64}");

  public PullRequestChange {
    if (number <= 0) {
      throw new IllegalArgumentException("a pull request's number is positive, not " + number);
    }
    Objects.requireNonNull(action, "action");
    if (headSha == null || !SHA.matcher(headSha).matches()) {
      throw new IllegalArgumentException("head commit " + headSha + " is not a hex commit id");
    }
    requireBranch("head", headRef);
    requireBranch("base", baseRef);
    labels = List.copyOf(labels);
    if (labels.size() > MAX_LABELS || labels.stream().anyMatch(l -> l.isEmpty() || l.length() > MAX_LABEL)) {
      throw new IllegalArgumentException("at most " + MAX_LABELS + " labels of 1 to " + MAX_LABEL + " characters");
    }
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(author, "author");
    if (title.length() > MAX_TITLE || author.length() > MAX_AUTHOR) {
      throw new IllegalArgumentException("title or author too long; cut them with PullRequestFields");
    }
  }

  private static void requireBranch(String which, String branch) {
    if (branch == null || branch.isEmpty() || branch.length() > MAX_BRANCH || branch.startsWith("refs/")) {
      throw new IllegalArgumentException(which + " branch " + branch + " is not a branch name");
    }
  }
}
