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

  public static String repository(String namespace, String repository, long number) {
    return fit(repository, "-pr-" + number, LABEL_LIMIT - namespace.length() - 1);
  }

  private static String fit(String base, String suffix, int limit) {
    String whole = base + suffix;
    if (whole.length() <= limit) {
      return whole;
    }
    String hash = HexFormat.of().formatHex(sha256(whole)).substring(0, 8);
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
