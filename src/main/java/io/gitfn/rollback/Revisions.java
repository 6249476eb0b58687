package io.gitfn.rollback;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Revision strings as a Function's history holds them: {@code <ref>@sha1:<40 hex>} (see
 * {@code io.gitfn.source.Revision}), a bare commit SHA, or {@code inline} for a Function made by hand.
 */
public final class Revisions {

  /** How many hex digits of a SHA gitfn shows, as {@code git log --oneline} does. */
  public static final int SHORT_SHA = 7;

  private static final Pattern WITH_SHA = Pattern.compile("^(?:(.+)@sha1:)?([0-9a-f]{40})$");

  private Revisions() {}

  /** The commit SHA a revision names, or empty for one that names none, like {@code inline}. */
  public static Optional<String> sha(String revision) {
    if (revision == null) {
      return Optional.empty();
    }
    Matcher matcher = WITH_SHA.matcher(revision);
    return matcher.matches() ? Optional.of(matcher.group(2)) : Optional.empty();
  }

  /** {@code main@sha1:1a2b3c4} for {@code main@sha1:<40 hex>}, seven digits for a bare SHA, else unchanged. */
  public static String shorten(String revision) {
    if (revision == null) {
      return null;
    }
    Matcher matcher = WITH_SHA.matcher(revision);
    if (!matcher.matches()) {
      return revision;
    }
    String sha = matcher.group(2).substring(0, SHORT_SHA);
    return matcher.group(1) == null ? sha : matcher.group(1) + "@sha1:" + sha;
  }
}
