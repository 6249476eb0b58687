package io.gitfn.notify;

import java.util.Objects;

/**
 * What {@link PullRequestComments#upsert} did.
 *
 * @param id the comment's id on the forge
 * @param change whether the comment was created, edited, or already said that
 */
public record UpsertedComment(String id, Change change) {

  /** What was done to the comment. */
  public enum Change {
    CREATED,
    EDITED,
    /** The comment had that body already; nothing was sent, so the forge shows no new edit. */
    UNCHANGED
  }

  public UpsertedComment {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(change, "change");
  }
}
