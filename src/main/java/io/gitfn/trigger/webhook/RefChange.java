package io.gitfn.trigger.webhook;

/**
 * One ref a push moved.
 *
 * @param ref the full ref, such as {@code refs/heads/main}
 * @param after the commit it points at now, or null when the push deleted it
 */
record RefChange(String ref, String after) {

  private static final String ZERO_SHA1 = "0".repeat(40);
  private static final String ZERO_SHA256 = "0".repeat(64);

  RefChange {
    if (ref == null || !ref.startsWith("refs/")) {
      throw new IllegalArgumentException("ref " + ref + " is not a full ref");
    }
  }

  /**
   * A change as a payload states it. Forges mark a deleted ref with an all-zero sha (and Gitea's test delivery
   * on an empty repository does the same); both become null.
   */
  static RefChange of(String ref, String after) {
    boolean none = after == null || after.isBlank() || after.equals(ZERO_SHA1) || after.equals(ZERO_SHA256);
    return new RefChange(ref, none ? null : after);
  }
}
