package io.gitfn.source.verify;

/**
 * Why a commit or tag did not verify. The names are the reasons a {@code SourceVerified=False} condition shows, so
 * they are the condition's words rather than Java constants' usual spelling.
 */
public enum Failure {
  /** The commit carries no signature. */
  UnsignedCommit,
  /** The tag is lightweight or its annotated object carries no signature. */
  UnsignedTag,
  /** Signed, but by a key that is not among the repository's keys (or not allowed for Git's namespace). */
  UnknownKey,
  /** Signed by a known key that has expired, or was outside its validity when the object was signed. */
  ExpiredKey,
  /** Signed by a known key that its owner revoked. */
  RevokedKey,
  /** The signature does not match the object's content, or is not a signature gitfn can read. */
  BadSignature,
  /** {@code Range} only: more new commits than one verification walks; nothing is trusted. */
  TooManyCommits,
  /**
   * {@code Range} only: the last verified revision is not in the repository (history rewritten and collected, or a
   * new URL), so which commits are new cannot be known; nothing is trusted.
   */
  LastVerifiedMissing
}
