package io.gitfn.notify;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/** A short, printable piece of what a server said, safe to put in a status condition, an event or a log line. */
final class Excerpt {

  static final int LIMIT = 200;

  private Excerpt() {}

  /** The answer's text with the request's credentials masked, cleaned and cut as {@link #clean} does. */
  static String of(byte[] answer, Collection<String> credentials) {
    // Decoding replaces malformed bytes, such as a character the cap cut in two.
    String text = new String(answer, StandardCharsets.UTF_8);
    for (String credential : credentials) {
      text = text.replace(credential, "***");
    }
    return clean(text);
  }

  /**
   * Control and format characters (line breaks, escapes, bidi overrides) become spaces, runs of spaces one space,
   * and the result at most {@link #LIMIT} characters, ending in "..." when cut.
   */
  static String clean(String text) {
    StringBuilder clean = new StringBuilder();
    text.codePoints().forEach(c -> {
      boolean blank = Character.isWhitespace(c) || Character.isISOControl(c)
          || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.LINE_SEPARATOR
          || Character.getType(c) == Character.PARAGRAPH_SEPARATOR;
      if (!blank) {
        clean.appendCodePoint(c);
      } else if (clean.length() > 0 && clean.charAt(clean.length() - 1) != ' ') {
        clean.append(' ');
      }
    });
    String result = clean.toString().strip();
    if (result.codePointCount(0, result.length()) <= LIMIT) {
      return result;
    }
    return result.substring(0, result.offsetByCodePoints(0, LIMIT - 3)) + "...";
  }
}
