package io.gitfn.notify;

import java.util.Locale;

/** What gitfn says about one commit, in the four words GitHub's commit-status API has; each forge maps them. */
public enum CommitState {
  /** gitfn is working on the commit. */
  PENDING,
  /** The commit is applied: its Functions are in the cluster and ready. */
  SUCCESS,
  /** The commit itself is wrong (an invalid manifest, a failed build); a new commit has to fix it. */
  FAILURE,
  /** gitfn could not finish for a reason outside the commit (the cluster, the registry, the network). */
  ERROR;

  /** The lower-case word, as GitHub and the generic notification spell it. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}
