package io.gitfn.notify;

import java.util.Objects;

/**
 * A comment on a pull request as its forge lists it.
 *
 * @param id the comment's id, as the URL that edits it names it
 * @param body its text as written (Markdown)
 * @param version Bitbucket Server's version of it, which an edit must name; 0 elsewhere
 */
record ForgeComment(String id, String body, long version) {

  ForgeComment {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(body, "body");
  }
}
