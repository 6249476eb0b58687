package io.gitfn.notify;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** API endpoints from a base and path segments, each percent-encoded on its own. */
final class Endpoint {

  private static final String HEX = "0123456789ABCDEF";

  private Endpoint() {}

  /** {@code base/segment/...}; a slash inside a segment is encoded ({@code group%2Fproject}, as GitLab wants it). */
  static URI of(URI base, String... segments) {
    return URI.create(base + path(segments));
  }

  /**
   * {@code base/prefix.../rest...}: a resource's segments after the ones that name its repository, as each forge's
   * client puts {@code repos/{owner}/{name}} or {@code projects/{path}} before them.
   */
  static URI of(URI base, List<String> prefix, String... rest) {
    return URI.create(base + path(prefix.toArray(String[]::new)) + path(rest));
  }

  /** {@code /segment/...}, each segment encoded. */
  static String path(String... segments) {
    StringBuilder path = new StringBuilder();
    for (String segment : segments) {
      path.append('/');
      for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
        int c = b & 0xff;
        if (unreserved(c)) {
          path.append((char) c);
        } else {
          path.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
        }
      }
    }
    return path.toString();
  }

  // RFC 3986's unreserved characters: the only ones no server reads differently when they are encoded.
  private static boolean unreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '~';
  }
}
