package io.gitfn.preview;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a repository's {@code spec.previews} asks, with its defaults applied.
 *
 * @param labels a pull request needs one of these (a fork's always does); empty: any from the repository itself
 * @param baseBranch the branch the repository follows: only pull requests into it are previewed; empty when it
 *     follows a tag or commit, and then any base is
 */
public record PreviewRules(List<String> labels, int maxActive, Duration ttl, Optional<String> baseBranch) {

  public PreviewRules {
    labels = List.copyOf(labels);
    if (maxActive < 1) {
      throw new IllegalArgumentException("maxActive is at least 1, not " + maxActive);
    }
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(baseBranch, "baseBranch");
  }

  /** Why {@code pullRequest} gets no preview, or empty when it qualifies. */
  public Optional<String> refusal(PullRequest pullRequest) {
    if (baseBranch.isPresent() && !baseBranch.get().equals(pullRequest.baseRef())) {
      return Optional.of("it merges into " + pullRequest.baseRef() + ", not " + baseBranch.get()
          + ", the branch the repository follows");
    }
    boolean labelled = pullRequest.labels().stream().anyMatch(labels::contains);
    if (pullRequest.fromFork() && !labelled) {
      return Optional.of(labels.isEmpty() ? "it comes from a fork, and spec.previews.labels names no label that"
          + " would let a maintainer allow it" : "it comes from a fork and carries none of the labels " + labels);
    }
    if (!labels.isEmpty() && !labelled) {
      return Optional.of("it carries none of the labels " + labels);
    }
    return Optional.empty();
  }
}
