package io.gitfn.source;

import java.util.regex.Pattern;

/**
 * A commit that a tracked ref pointed at: {@code ref} is the short name the user tracked ({@code main},
 * {@code release/2026-11}, {@code v1.2.3}, or for a pinned commit the SHA itself).
 */
public record Revision(String ref, String sha) {

  private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}");

  public Revision {
    if (ref == null || ref.isBlank()) {
      throw new IllegalArgumentException("a revision needs the name of its ref");
    }
    if (sha == null || !SHA.matcher(sha).matches()) {
      throw new IllegalArgumentException("commit '" + sha + "' of " + ref + " is not 40 lowercase hex digits");
    }
  }

  static boolean isSha(String text) {
    return text != null && SHA.matcher(text).matches();
  }

  /** {@code <ref>@sha1:<sha>}, as Flux reports a revision. */
  @Override
  public String toString() {
    return ref + "@sha1:" + sha;
  }
}
