package io.gitfn.preview;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names of a preview's namespace ({@code <namespace>-pr-<number>}) and of the FunctionRepository that applies it
 * ({@code <repository>-pr-<number>}, beside the previewed one). A name that would pass Kubernetes' limit is cut and
 * given a hash of the whole, so it stays unique and the same on every controller.
 */
public final class PreviewNames {

  /** A namespace is a DNS label. */
  static final int NAMESPACE_LIMIT = 63;
  /**
   * The repository's name goes into the {@code gitfn.io/repository} label as {@code <namespace>.<name>}, which is
   * a label value of at most 63 characters; the name is cut so that the label fits.
   */
  static final int LABEL_LIMIT = 63;

  private PreviewNames() {}

  public static String namespace(String namespace, long number) {
    return fit(namespace, "-pr-" + number, NAMESPACE_LIMIT);
  }

  /**
   * The preview's repository's name. Past the label's limit it is cut and hashed; where even that does not fit, it
   * is {@code pr-<number>}, which is unique too: one namespace holds the previews of one number once, since they
   * share its preview namespace.
   *
   * @throws IllegalArgumentException when the namespace is so long that not even {@code pr-<number>} fits
   */
  public static String repository(String namespace, String repository, long number) {
    int limit = LABEL_LIMIT - namespace.length() - 1;
    String suffix = "-pr-" + number;
    if ((repository + suffix).length() > limit && limit < suffix.length() + HASH + 2) {
      String shortest = "pr-" + number;
      if (shortest.length() > limit) {
        throw new IllegalArgumentException("namespace " + namespace + " is too long for previews: the label "
            + "gitfn.io/repository of a preview's repository, <namespace>.<name>, must fit in " + LABEL_LIMIT
            + " characters");
      }
      return shortest;
    }
    return fit(repository, suffix, limit);
  }

  private static final int HASH = 8;

  private static String fit(String base, String suffix, int limit) {
    String whole = base + suffix;
    if (whole.length() <= limit) {
      return whole;
    }
    String hash = HexFormat.of().formatHex(sha256(whole)).substring(0, HASH);
    int keep = Math.max(1, limit - suffix.length() - hash.length() - 1);
    String cut = base.substring(0, Math.min(keep, base.length())).replaceAll("[-.]+$", "");
    return cut + "-" + hash + suffix;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
