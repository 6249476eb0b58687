package io.gitfn.notify;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What tells a comment gitfn keeps on a pull request from everyone else's, and one FunctionRepository's from
 * another's on the same repository: the comment's first line, written so that the forge does not show it.
 *
 * @param key such as {@code gitfn-preview:shop/functions}
 */
public record CommentMarker(String key) {

  // What a Kubernetes name and a prefix can hold; no "--", which would end an HTML comment early.
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9._:/]|-(?!-))*");

  public CommentMarker {
    Objects.requireNonNull(key, "key");
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("a comment marker's key is letters, digits and . _ : / -, without `--`, "
          + "not `" + Excerpt.clean(key) + "`");
    }
  }

  /** The marker of the preview comment of the FunctionRepository {@code namespace/name}. */
  public static CommentMarker preview(String namespace, String name) {
    return new CommentMarker("gitfn-preview:" + namespace + "/" + name);
  }

  /**
   * The first line of a marked comment on {@code forge}: an HTML comment, or, on Bitbucket, whose Markdown shows raw
   * HTML as text, a link reference definition that nothing refers to, which Markdown consumes and shows nothing of.
   */
  public String line(Forge forge) {
    return switch (forge) {
      case BITBUCKET_CLOUD, BITBUCKET_SERVER -> "[" + key + "]: #";
      case GITHUB, GITLAB, GITEA, FORGEJO -> "<!-- " + key + " -->";
    };
  }

  /**
   * {@code body} below this marker, as gitfn writes it on {@code forge}. The blank line keeps the marker a block of
   * its own, so the body's first paragraph renders as Markdown.
   */
  String mark(Forge forge, String body) {
    return line(forge) + "\n\n" + body;
  }

  /**
   * Whether {@code body} is one this marker marks on {@code forge}: its first line is the marker. A reply that quotes
   * gitfn's comment starts with {@code >} and does not count.
   */
  boolean marks(Forge forge, String body) {
    int end = body.indexOf('\n');
    String first = end < 0 ? body : body.substring(0, end);
    return first.strip().equals(line(forge));
  }
}
