package io.gitfn.notify;

import java.util.Objects;

/**
 * The first line of a comment gitfn keeps on a pull request: an HTML comment the forge does not show, which tells
 * gitfn's comment from everyone else's, and one FunctionRepository's from another's on the same repository.
 *
 * @param line such as {@code <!-- gitfn-preview:shop/functions -->}
 */
public record CommentMarker(String line) {

  public CommentMarker {
    Objects.requireNonNull(line, "line");
    String inside = line.startsWith("<!--") && line.endsWith("-->") && line.length() >= 7
        ? line.substring(4, line.length() - 3) : null;
    // "--" inside would end the HTML comment early (or be refused by strict renderers) and show the rest.
    if (inside == null || inside.isBlank() || inside.contains("--") || inside.contains(">")
        || line.chars().anyMatch(c -> c == '\n' || c == '\r')) {
      throw new IllegalArgumentException("a comment marker is one line `<!-- text -->` without `--` or `>` in the "
          + "text, not `" + Excerpt.clean(line) + "`");
    }
  }

  /** The marker of the preview comment of the FunctionRepository {@code namespace/name}. */
  public static CommentMarker preview(String namespace, String name) {
    return new CommentMarker("<!-- gitfn-preview:" + namespace + "/" + name + " -->");
  }

  /** {@code body} with this marker as its first line: what gitfn writes. */
  String mark(String body) {
    return line + "\n" + body;
  }

  /**
   * Whether {@code body} is one this marker marks: its first line is the marker. A reply that quotes gitfn's comment
   * starts with {@code >} and does not count.
   */
  boolean marks(String body) {
    int end = body.indexOf('\n');
    String first = end < 0 ? body : body.substring(0, end);
    return first.strip().equals(line);
  }
}
