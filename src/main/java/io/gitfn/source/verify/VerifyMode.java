package io.gitfn.source.verify;

/** What a repository's {@code spec.verify.mode} asks to be signed, in Flux's words plus {@code Range}. */
public enum VerifyMode {
  /** The commit to be deployed. */
  HEAD,
  /** The annotated tag that {@code ref.tag} or {@code ref.semver} names. */
  Tag,
  /** The annotated tag, and the commit it points at. */
  TagAndHEAD,
  /**
   * Every commit from the last verified revision to the new head, so that an unsigned commit in the middle of a
   * push cannot ride in under a signed one.
   */
  Range;

  /**
   * The mode spelled {@code text}, as {@code spec.verify.mode} and {@code gitfn.io/verify-mode} spell it.
   *
   * @throws IllegalArgumentException naming the modes there are
   */
  public static VerifyMode named(String text) {
    for (VerifyMode mode : values()) {
      if (mode.name().equals(text)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("`" + text + "` is not HEAD, Tag, TagAndHEAD or Range");
  }
}
