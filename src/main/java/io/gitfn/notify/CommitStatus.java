package io.gitfn.notify;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One status for one commit, as every forge shows it: a state, a context naming who reports it (such as
 * {@code gitfn/orders}), a description and optionally a link.
 *
 * <p>The description is kept whole here; each forge's request cuts it to that forge's limit
 * ({@link #descriptionWithin}), because a status that says less is better than no status.
 *
 * @param sha the full commit id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits
 * @param state what gitfn says about the commit
 * @param context who reports it; not blank, at most 255 characters, no control characters
 * @param description a human sentence; null is read as empty
 * @param targetUrl an absolute http(s) link to more detail, or null
 */
public record CommitStatus(String sha, CommitState state, String context, String description, String targetUrl) {

  /** GitHub, GitLab and Gitea keep a context up to this many characters. */
  public static final int CONTEXT_LIMIT = 255;
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
  private static final String ELLIPSIS = "...";

  public CommitStatus {
    Objects.requireNonNull(state, "commit status: state is required");
    if (sha == null || !SHA.matcher(sha).matches()) {
      throw new IllegalArgumentException("commit status: sha `" + sha
          + "` is not a full commit id (40 or 64 lower-case hex digits)");
    }
    if (context == null || context.isBlank()) {
      throw new IllegalArgumentException("commit status for " + sha + ": context is empty");
    }
    if (context.codePointCount(0, context.length()) > CONTEXT_LIMIT) {
      throw new IllegalArgumentException("commit status for " + sha + ": context is longer than "
          + CONTEXT_LIMIT + " characters");
    }
    if (context.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("commit status for " + sha + ": context `" + context.strip()
          + "` has a control character in it");
    }
    description = description == null ? "" : description;
    if (targetUrl != null) {
      checkTargetUrl(sha, targetUrl);
    }
  }

  /**
   * The description cut to at most {@code limit} characters (code points), ending in "..." when cut.
   *
   * @param limit at least 4, room for one character and the ellipsis
   */
  public String descriptionWithin(int limit) {
    if (limit <= ELLIPSIS.length()) {
      throw new IllegalArgumentException("a description limit must leave room for \"...\", not " + limit);
    }
    if (description.codePointCount(0, description.length()) <= limit) {
      return description;
    }
    int end = description.offsetByCodePoints(0, limit - ELLIPSIS.length());
    return description.substring(0, end) + ELLIPSIS;
  }

  private static void checkTargetUrl(String sha, String targetUrl) {
    // The forges refuse a status whose link is not an absolute web address (GitHub answers 422); say so here.
    try {
      URI uri = new URI(targetUrl);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null) {
        return;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new IllegalArgumentException("commit status for " + sha + ": target URL `" + targetUrl
        + "` is not an absolute http or https URL");
  }
}
