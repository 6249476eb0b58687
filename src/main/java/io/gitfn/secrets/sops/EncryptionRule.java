package io.gitfn.secrets.sops;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which values a SOPS file has encrypted, from the one rule its metadata names ({@code shouldBeEncrypted} in sops'
 * {@code sops.go}): a value is encrypted unless a key on its path ends with the unencrypted suffix
 * ({@code _unencrypted} when the file names no rule), or only if one ends with the encrypted suffix, and likewise
 * for the two regular expressions, which sops finds anywhere in a key (not anchored).
 */
sealed interface EncryptionRule {

  String DEFAULT_UNENCRYPTED_SUFFIX = "_unencrypted";

  /** Whether the value at {@code path} (its keys, sequence indices left out, as sops walks) is encrypted. */
  boolean encrypts(List<String> path);

  record UnencryptedSuffix(String suffix) implements EncryptionRule {
    @Override
    public boolean encrypts(List<String> path) {
      return path.stream().noneMatch(key -> key.endsWith(suffix));
    }
  }

  record EncryptedSuffix(String suffix) implements EncryptionRule {
    @Override
    public boolean encrypts(List<String> path) {
      return path.stream().anyMatch(key -> key.endsWith(suffix));
    }
  }

  record UnencryptedRegex(Pattern pattern) implements EncryptionRule {
    @Override
    public boolean encrypts(List<String> path) {
      return path.stream().noneMatch(key -> BoundedMatch.find(pattern, key));
    }
  }

  record EncryptedRegex(Pattern pattern) implements EncryptionRule {
    @Override
    public boolean encrypts(List<String> path) {
      return path.stream().anyMatch(key -> BoundedMatch.find(pattern, key));
    }
  }

  /**
   * Compiles a regular expression from the metadata. sops uses Go's RE2 syntax; the expressions people write for
   * Secrets ({@code ^(data|stringData)$}) mean the same in Java.
   */
  static Pattern compile(String regex, String field, String file) throws SopsException {
    if (regex.length() > BoundedMatch.MAX_PATTERN) {
      throw new SopsException(SopsException.Reason.UNSUPPORTED, file, "sops." + field,
          "is longer than " + BoundedMatch.MAX_PATTERN + " characters");
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new SopsException(SopsException.Reason.NOT_SOPS, file, "sops." + field,
          "is not a regular expression: " + e.getDescription());
    }
  }

  /**
   * Java's regular expressions backtrack, and the pattern and the keys both come from the file: a match is cut off
   * after a fixed number of steps instead of running for minutes.
   */
  final class BoundedMatch implements CharSequence {
    static final int MAX_PATTERN = 256;
    private static final int MAX_STEPS = 1_000_000;
    private final String text;
    private final int[] steps;

    private BoundedMatch(String text, int[] steps) {
      this.text = text;
      this.steps = steps;
    }

    static boolean find(Pattern pattern, String key) {
      return pattern.matcher(new BoundedMatch(key, new int[1])).find();
    }

    @Override
    public char charAt(int index) {
      if (++steps[0] > MAX_STEPS) {
        throw new IllegalArgumentException("regular expression too costly to match; simplify it");
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new BoundedMatch(text.substring(start, end), steps);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
