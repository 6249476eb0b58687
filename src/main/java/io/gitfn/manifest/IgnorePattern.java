package io.gitfn.manifest;

import java.util.Optional;

/**
 * One line of a {@code .gitfnignore} file (gitignore syntax), matched against paths relative to the tree root.
 * {@code base} is the folder the line applies below: the ignore file's folder, or the repository's path.
 */
record IgnorePattern(String base, boolean negated, boolean directoryOnly, Glob glob, String text) {

  /**
   * The pattern on {@code line}, or empty for a blank line or a comment.
   *
   * @throws IllegalArgumentException when the line is not a pattern, saying why
   */
  static Optional<IgnorePattern> parse(String line, String base) {
    String text = stripTrailingSpaces(line);
    if (text.isEmpty() || text.startsWith("#")) {
      return Optional.empty();
    }
    boolean negated = text.startsWith("!");
    if (negated) {
      text = text.substring(1);
    } else if (text.startsWith("\\!") || text.startsWith("\\#")) {
      text = text.substring(1);
    }
    boolean directoryOnly = text.endsWith("/");
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    if (text.isEmpty()) {
      return Optional.empty();
    }
    // A slash at the start or in the middle anchors the pattern to its base; otherwise it matches at any depth.
    boolean anchored = text.contains("/");
    while (text.startsWith("/")) {
      text = text.substring(1);
    }
    return Optional.of(new IgnorePattern(base, negated, directoryOnly, Glob.compile(text, !anchored), line.strip()));
  }

  /** True when this line speaks about {@code path} (whether to ignore it or, negated, to keep it). */
  boolean matches(String path, boolean directory) {
    if (directoryOnly && !directory) {
      return false;
    }
    String relative;
    if (base.isEmpty()) {
      relative = path;
    } else if (path.startsWith(base + "/")) {
      relative = path.substring(base.length() + 1);
    } else {
      return false;
    }
    return glob.matches(relative);
  }

  private static String stripTrailingSpaces(String line) {
    int end = line.length();
    while (end > 0 && (line.charAt(end - 1) == ' ' || line.charAt(end - 1) == '\t' || line.charAt(end - 1) == '\r')
        && !(end > 1 && line.charAt(end - 2) == '\\')) {
      end--;
    }
    return line.substring(0, end);
  }
}
