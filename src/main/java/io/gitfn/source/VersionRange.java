package io.gitfn.source;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semver range in the npm notation that Flux and Helm users write: {@code 1.2.3}, {@code >=1.0.0 <2.0.0},
 * {@code ^1.2}, {@code ~1.2.0}, {@code 1.x}, {@code *}, {@code 1.2.3 - 2.0.0}, and alternatives joined by
 * {@code ||}. Comparators are separated by spaces or commas.
 *
 * <p>A pre-release version matches only when a comparator of the same alternative names a pre-release of the
 * same major.minor.patch (npm's rule), so {@code >=1.0.0-rc.1} admits {@code 1.0.0-rc.2} but {@code ^1.0.0}
 * never picks {@code 1.1.0-beta}.
 */
final class VersionRange {

  private enum Op {
    EQ, GT, GE, LT, LE
  }

  private record Comparator(Op op, SemanticVersion version) {
    boolean test(SemanticVersion v) {
      int c = v.compareTo(version);
      return switch (op) {
        case EQ -> c == 0;
        case GT -> c > 0;
        case GE -> c >= 0;
        case LT -> c < 0;
        case LE -> c <= 0;
      };
    }
  }

  // A version with parts that may be missing or wildcards: 1, 1.2, 1.x, 1.2.*, v1.2.3-rc.1.
  private record Partial(Long major, Long minor, Long patch, List<String> preRelease) {
    SemanticVersion floor() {
      return new SemanticVersion(orZero(major), orZero(minor), orZero(patch), preRelease);
    }

    private static long orZero(Long part) {
      return part == null ? 0 : part;
    }
  }

  private static final Pattern PARTIAL =
      Pattern.compile(
          "[vV=]?(\\d+|[xX*])(?:\\.(\\d+|[xX*])(?:\\.(\\d+|[xX*])(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
              + "(?:\\+[0-9A-Za-z.-]+)?)?)?");
  private static final Pattern OPERATOR = Pattern.compile("(\\^|~>?|>=|<=|>|<|=)?\\s*(.*)");

  private final String text;
  private final List<List<Comparator>> alternatives;

  private VersionRange(String text, List<List<Comparator>> alternatives) {
    this.text = text;
    this.alternatives = alternatives;
  }

  static VersionRange parse(String range) {
    if (range == null || range.isBlank()) {
      throw new IllegalArgumentException("a semver range is empty");
    }
    List<List<Comparator>> alternatives = new ArrayList<>();
    for (String alternative : range.split("\\|\\|", -1)) {
      alternatives.add(parseAlternative(range, alternative.trim()));
    }
    return new VersionRange(range.trim(), List.copyOf(alternatives));
  }

  boolean matches(SemanticVersion version) {
    for (List<Comparator> comparators : alternatives) {
      if (comparators.stream().allMatch(c -> c.test(version)) && preReleaseAllowed(comparators, version)) {
        return true;
      }
    }
    return false;
  }

  private static boolean preReleaseAllowed(List<Comparator> comparators, SemanticVersion version) {
    return !version.isPreRelease()
        || comparators.stream()
            .anyMatch(c -> c.version().isPreRelease() && c.version().sameCore(version));
  }

  private static List<Comparator> parseAlternative(String range, String alternative) {
    List<Comparator> comparators = new ArrayList<>();
    if (alternative.isEmpty()) {
      comparators.add(new Comparator(Op.GE, new SemanticVersion(0, 0, 0)));
      return comparators;
    }
    Matcher hyphen = Pattern.compile("(\\S+)\\s+-\\s+(\\S+)").matcher(alternative);
    if (hyphen.matches()) {
      comparators.addAll(desugar(range, ">=", partial(range, hyphen.group(1))));
      comparators.addAll(desugar(range, "<=", partial(range, hyphen.group(2))));
      return comparators;
    }
    for (String token : tokens(alternative)) {
      Matcher m = OPERATOR.matcher(token);
      if (!m.matches()) {
        throw invalid(range, token);
      }
      comparators.addAll(desugar(range, m.group(1) == null ? "" : m.group(1), partial(range, m.group(2))));
    }
    return comparators;
  }

  // Splits on spaces and commas, and joins an operator written apart from its version (">= 1.0").
  private static List<String> tokens(String alternative) {
    List<String> tokens = new ArrayList<>();
    String pending = "";
    for (String word : alternative.split("[\\s,]+")) {
      if (word.isEmpty()) {
        continue;
      }
      if (word.matches("\\^|~>?|>=|<=|>|<|=")) {
        pending = word;
      } else {
        tokens.add(pending + word);
        pending = "";
      }
    }
    if (!pending.isEmpty()) {
      tokens.add(pending);
    }
    return tokens;
  }

  private static Partial partial(String range, String text) {
    Matcher m = PARTIAL.matcher(text);
    if (!m.matches()) {
      throw invalid(range, text);
    }
    Long major = number(m.group(1));
    Long minor = major == null ? null : number(m.group(2));
    Long patch = minor == null ? null : number(m.group(3));
    List<String> pre = patch == null || m.group(4) == null ? List.of() : List.of(m.group(4).split("\\."));
    return new Partial(major, minor, patch, pre);
  }

  private static Long number(String part) {
    if (part == null || part.equalsIgnoreCase("x") || part.equals("*")) {
      return null;
    }
    try {
      return Long.parseLong(part);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("version number " + part + " is too large");
    }
  }

  private static List<Comparator> desugar(String range, String operator, Partial p) {
    SemanticVersion floor = p.floor();
    if (p.major() == null) {
      // "*", "x", ">=*": anything; "<*" or ">*": nothing.
      return operator.equals("<") || operator.equals(">")
          ? List.of(new Comparator(Op.LT, new SemanticVersion(0, 0, 0)))
          : List.of(new Comparator(Op.GE, new SemanticVersion(0, 0, 0)));
    }
    return switch (operator) {
      case "", "=" -> p.patch() != null
          ? List.of(new Comparator(Op.EQ, floor))
          : between(floor, nextUp(p));
      case "^" -> between(floor, caretCeiling(p));
      case "~", "~>" -> between(floor, p.minor() == null
          ? new SemanticVersion(p.major() + 1, 0, 0)
          : new SemanticVersion(p.major(), p.minor() + 1, 0));
      case ">=" -> List.of(new Comparator(Op.GE, floor));
      case ">" -> p.patch() != null
          ? List.of(new Comparator(Op.GT, floor))
          : List.of(new Comparator(Op.GE, nextUp(p)));
      case "<" -> List.of(new Comparator(Op.LT, floor));
      case "<=" -> p.patch() != null
          ? List.of(new Comparator(Op.LE, floor))
          : List.of(new Comparator(Op.LT, nextUp(p)));
      default -> throw invalid(range, operator);
    };
  }

  private static List<Comparator> between(SemanticVersion floor, SemanticVersion ceiling) {
    return List.of(new Comparator(Op.GE, floor), new Comparator(Op.LT, ceiling));
  }

  // The first version past a partial one: 1 -> 2.0.0, 1.2 -> 1.3.0.
  private static SemanticVersion nextUp(Partial p) {
    return p.minor() == null
        ? new SemanticVersion(p.major() + 1, 0, 0)
        : new SemanticVersion(p.major(), p.minor() + 1, 0);
  }

  // ^ allows changes that do not touch the left-most non-zero part.
  private static SemanticVersion caretCeiling(Partial p) {
    if (p.major() > 0 || p.minor() == null) {
      return new SemanticVersion(p.major() + 1, 0, 0);
    }
    if (p.minor() > 0 || p.patch() == null) {
      return new SemanticVersion(0, p.minor() + 1, 0);
    }
    return new SemanticVersion(0, 0, p.patch() + 1);
  }

  private static IllegalArgumentException invalid(String range, String part) {
    return new IllegalArgumentException(
        "semver range '" + range + "' is not valid at '" + part
            + "'; write it like 1.2.3, >=1.0.0 <2.0.0, ^1.2, ~1.2.0, 1.x or *");
  }

  @Override
  public String toString() {
    return text;
  }
}
