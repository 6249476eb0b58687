package io.gitfn.manifest;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One line of a {@code .gitfnignore} file (gitignore syntax), matched against paths relative to the tree root.
 * {@code base} is the folder the line applies below: the ignore file's folder, or the repository's path.
 */
record IgnorePattern(String base, boolean negated, boolean directoryOnly, Pattern regex, String text) {

  /** The pattern on {@code line}, or empty for a blank line or a comment. */
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
    String glob = glob(text);
    Pattern regex = Pattern.compile(anchored ? glob : "(?:.*/)?" + glob);
    return Optional.of(new IgnorePattern(base, negated, directoryOnly, regex, line.strip()));
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
    return regex.matcher(relative).matches();
  }

  private static String glob(String text) {
    StringBuilder regex = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      boolean atSegmentStart = i == 0 || text.charAt(i - 1) == '/';
      if (c == '*' && text.startsWith("**", i) && atSegmentStart
          && (i + 2 == text.length() || text.charAt(i + 2) == '/')) {
        if (i + 2 == text.length()) {
          regex.append(".*");
          i += 2;
        } else {
          regex.append("(?:.*/)?");
          i += 3;
        }
      } else if (c == '*') {
        regex.append("[^/]*");
        i++;
      } else if (c == '?') {
        regex.append("[^/]");
        i++;
      } else if (c == '[' && text.indexOf(']', i + 1) > i + 1) {
        int end = text.indexOf(']', i + 1);
        String set = text.substring(i + 1, end);
        if (set.startsWith("!")) {
          set = "^" + set.substring(1);
        }
        regex.append('[').append(set.replace("\\", "\\\\").replace("[", "\\[")).append(']');
        i = end + 1;
      } else if (c == '\\' && i + 1 < text.length()) {
        regex.append(Pattern.quote(String.valueOf(text.charAt(i + 1))));
        i += 2;
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
        i++;
      }
    }
    return regex.toString();
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
