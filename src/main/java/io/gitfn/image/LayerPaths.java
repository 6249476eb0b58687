package io.gitfn.image;

/** What a path inside a layer may be: relative, {@code /}-separated, no empty, {@code .} or {@code ..} part. */
final class LayerPaths {

  /** A tar header holds a name of any length through PAX; this bound keeps a hostile name from costing memory. */
  static final int MAX_LENGTH = 4096;

  private LayerPaths() {}

  static String check(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("a layer entry needs a path");
    }
    if (path.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("a layer path is at most " + MAX_LENGTH + " characters, not " + path.length());
    }
    if (path.startsWith("/") || path.endsWith("/")) {
      throw new IllegalArgumentException("`" + path + "`: a layer path is relative and does not end in /");
    }
    for (String part : path.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new IllegalArgumentException("`" + path + "`: a layer path has no empty, . or .. part");
      }
    }
    if (path.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a layer path has no NUL character");
    }
    return path;
  }

  /** The folder that holds {@code path}, or null at the root. */
  static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? null : path.substring(0, slash);
  }
}
