package io.gitfn.source;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A version as semver.org defines it; build metadata is kept out, since it plays no part in precedence. */
record SemanticVersion(long major, long minor, long patch, List<String> preRelease)
    implements Comparable<SemanticVersion> {

  private static final Pattern VERSION =
      Pattern.compile(
          "[vV]?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
              + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
              + "(?:\\+[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*)?");

  SemanticVersion {
    preRelease = List.copyOf(preRelease);
  }

  SemanticVersion(long major, long minor, long patch) {
    this(major, minor, patch, List.of());
  }

  /** The version a tag names ({@code 1.2.3}, {@code v1.2.3-rc.1}), or empty when it names none. */
  static Optional<SemanticVersion> parse(String text) {
    Matcher m = VERSION.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new SemanticVersion(
              Long.parseLong(m.group(1)),
              Long.parseLong(m.group(2)),
              Long.parseLong(m.group(3)),
              m.group(4) == null ? List.of() : List.of(m.group(4).split("\\."))));
    } catch (NumberFormatException tooBig) {
      return Optional.empty();
    }
  }

  boolean isPreRelease() {
    return !preRelease.isEmpty();
  }

  boolean sameCore(SemanticVersion other) {
    return major == other.major && minor == other.minor && patch == other.patch;
  }

  @Override
  public int compareTo(SemanticVersion other) {
    int core = compareCore(other);
    if (core != 0) {
      return core;
    }
    // A pre-release comes before its release: 1.0.0-rc.1 < 1.0.0.
    if (preRelease.isEmpty() || other.preRelease.isEmpty()) {
      return Boolean.compare(preRelease.isEmpty(), other.preRelease.isEmpty());
    }
    for (int i = 0; i < Math.min(preRelease.size(), other.preRelease.size()); i++) {
      int c = compareIdentifier(preRelease.get(i), other.preRelease.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(preRelease.size(), other.preRelease.size());
  }

  private int compareCore(SemanticVersion other) {
    int c = Long.compare(major, other.major);
    if (c == 0) {
      c = Long.compare(minor, other.minor);
    }
    return c == 0 ? Long.compare(patch, other.patch) : c;
  }

  // Numeric identifiers compare as numbers and sort before alphanumeric ones.
  private static int compareIdentifier(String a, String b) {
    boolean numericA = a.chars().allMatch(Character::isDigit);
    boolean numericB = b.chars().allMatch(Character::isDigit);
    if (numericA && numericB) {
      return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }
    if (numericA != numericB) {
      return numericA ? -1 : 1;
    }
    return a.compareTo(b);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch + (preRelease.isEmpty() ? "" : "-" + String.join(".", preRelease));
  }
}
