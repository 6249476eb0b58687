package io.gitfn.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * A gitignore pattern, matched against a {@code /}-separated path in time proportional to the pattern's length
 * times the path's, whatever the pattern: a {@code *} (within a segment) and a {@code **} (across segments) are
 * matched by going back only to the last star, never by the nested backtracking with which a regular expression
 * for {@code *a*a*a*a*b} takes exponential time. The patterns come from tenants' repositories.
 *
 * <p>Syntax, as gitignore's: {@code *} any run of characters but {@code /}, {@code ?} one such character,
 * {@code [a-z]} and {@code [!a-z]} a class, {@code \x} the character {@code x}, and a whole segment {@code **} any
 * number of segments (one or more at the end of the pattern: {@code drafts/**} is what is inside {@code drafts}).
 */
final class Glob {

  private sealed interface Segment permits Name, AnySegments {}

  /** One path segment: its characters as tokens. */
  private record Name(List<Token> tokens) implements Segment {}

  /** {@code **}: any number of segments. */
  private record AnySegments() implements Segment {}

  private sealed interface Token permits Literal, AnyChar, Star, CharClass {}

  private record Literal(char c) implements Token {}

  private record AnyChar() implements Token {}

  private record Star() implements Token {}

  private record CharClass(boolean negated, String singles, List<char[]> ranges) implements Token {
    boolean matches(char c) {
      boolean in = singles.indexOf(c) >= 0 || ranges.stream().anyMatch(r -> r[0] <= c && c <= r[1]);
      return in != negated;
    }
  }

  private final List<Segment> segments;

  private Glob(List<Segment> segments) {
    this.segments = segments;
  }

  /**
   * Compiles a pattern without its leading {@code /}.
   *
   * @param anywhere whether the pattern may match at any depth (gitignore: it has no {@code /} but a trailing one)
   * @throws IllegalArgumentException naming what is wrong, such as a class whose range runs backwards
   */
  static Glob compile(String pattern, boolean anywhere) {
    List<Segment> segments = new ArrayList<>();
    if (anywhere) {
      segments.add(new AnySegments());
    }
    String[] parts = pattern.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].equals("**")) {
        if (i == parts.length - 1) {
          segments.add(new Name(List.of(new Star()))); // at the end, ** is what is inside: at least one segment
        }
        segments.add(new AnySegments());
      } else {
        segments.add(new Name(tokens(parts[i])));
      }
    }
    return new Glob(List.copyOf(segments));
  }

  /** Whether the whole path matches. */
  boolean matches(String path) {
    String[] names = path.split("/", -1);
    int p = 0;
    int n = 0;
    int starP = -1;
    int starN = -1;
    while (n < names.length) {
      if (p < segments.size() && segments.get(p) instanceof AnySegments) {
        starP = p++;
        starN = n;
      } else if (p < segments.size() && segments.get(p) instanceof Name name && matches(name.tokens(), names[n])) {
        p++;
        n++;
      } else if (starP >= 0) {
        p = starP + 1;
        n = ++starN;
      } else {
        return false;
      }
    }
    while (p < segments.size() && segments.get(p) instanceof AnySegments) {
      p++;
    }
    return p == segments.size();
  }

  private static boolean matches(List<Token> tokens, String name) {
    int p = 0;
    int c = 0;
    int starP = -1;
    int starC = -1;
    while (c < name.length()) {
      if (p < tokens.size() && tokens.get(p) instanceof Star) {
        starP = p++;
        starC = c;
      } else if (p < tokens.size() && matches(tokens.get(p), name.charAt(c))) {
        p++;
        c++;
      } else if (starP >= 0) {
        p = starP + 1;
        c = ++starC;
      } else {
        return false;
      }
    }
    while (p < tokens.size() && tokens.get(p) instanceof Star) {
      p++;
    }
    return p == tokens.size();
  }

  private static boolean matches(Token token, char c) {
    if (token instanceof Literal literal) {
      return literal.c() == c;
    }
    if (token instanceof CharClass set) {
      return set.matches(c);
    }
    return token instanceof AnyChar;
  }

  private static List<Token> tokens(String segment) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    while (i < segment.length()) {
      char c = segment.charAt(i);
      int close = c == '[' ? segment.indexOf(']', i + 2) : -1;
      if (c == '*') {
        tokens.add(new Star());
        i++;
      } else if (c == '?') {
        tokens.add(new AnyChar());
        i++;
      } else if (close > 0) {
        tokens.add(charClass(segment.substring(i + 1, close)));
        i = close + 1;
      } else if (c == '\\' && i + 1 < segment.length()) {
        tokens.add(new Literal(segment.charAt(i + 1)));
        i += 2;
      } else {
        tokens.add(new Literal(c));
        i++;
      }
    }
    return List.copyOf(tokens);
  }

  // A class is what is between [ and the next ], which may itself be its first character: []a] holds ] and a.
  private static CharClass charClass(String set) {
    boolean negated = set.startsWith("!") || set.startsWith("^");
    String items = negated ? set.substring(1) : set;
    StringBuilder singles = new StringBuilder();
    List<char[]> ranges = new ArrayList<>();
    for (int i = 0; i < items.length(); i++) {
      char from = items.charAt(i);
      if (i + 2 < items.length() && items.charAt(i + 1) == '-') {
        char to = items.charAt(i + 2);
        if (from > to) {
          throw new IllegalArgumentException("the range " + from + "-" + to + " in [" + set + "] runs backwards");
        }
        ranges.add(new char[] {from, to});
        i += 2;
      } else {
        singles.append(from);
      }
    }
    return new CharClass(negated, singles.toString(), List.copyOf(ranges));
  }
}
