package io.gitfn.rollback;

import java.util.List;

/**
 * The commit a revert made.
 *
 * @param sha the new commit
 * @param restored the commit whose content it restores
 * @param undone the commits it undoes, as {@code <short sha> <subject>}, newest first
 * @param diffStat what {@code git diff --stat} says it changes
 * @param pushed false for a dry run: the commit was made in a scratch clone and thrown away
 */
public record RevertCommit(String sha, String restored, String message, List<String> undone, String diffStat,
    boolean pushed) {

  public RevertCommit {
    undone = List.copyOf(undone);
  }

  /** The first line of the message. */
  public String subject() {
    return message.lines().findFirst().orElse("");
  }
}
