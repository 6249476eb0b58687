package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** .gitfnignore lines follow gitignore: each case is (lines, base folder, path, ignored?). */
class GitignoreTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // A name without a slash matches at any depth below the base.
        Arguments.of("README.md", "", "README.md", true),
        Arguments.of("README.md", "", "functions/a/README.md", true),
        Arguments.of("README.md", "functions", "docs/README.md", false),
        // * and ? stay within one path segment.
        Arguments.of("*.md", "", "functions/a/notes.md", true),
        Arguments.of("functions/*.yaml", "", "functions/a/b.yaml", false),
        Arguments.of("functions/*.yaml", "", "functions/b.yaml", true),
        Arguments.of("v?.yaml", "", "v1.yaml", true),
        Arguments.of("v?.yaml", "", "v10.yaml", false),
        Arguments.of("[ab].yaml", "", "a.yaml", true),
        Arguments.of("[!ab].yaml", "", "a.yaml", false),
        // A leading slash anchors to the base; so does a slash in the middle.
        Arguments.of("/hello.yaml", "", "hello.yaml", true),
        Arguments.of("/hello.yaml", "", "functions/hello.yaml", false),
        Arguments.of("/hello.yaml", "functions", "functions/hello.yaml", true),
        Arguments.of("a/hello.yaml", "", "x/a/hello.yaml", false),
        // ** spans folders.
        Arguments.of("**/drafts", "", "functions/x/drafts/fn.yaml", true),
        Arguments.of("drafts/**", "", "drafts/x/fn.yaml", true),
        Arguments.of("a/**/b.yaml", "", "a/b.yaml", true),
        Arguments.of("a/**/b.yaml", "", "a/x/y/b.yaml", true),
        // A trailing slash matches folders only, and everything in them.
        Arguments.of("drafts/", "", "functions/drafts/fn.yaml", true),
        Arguments.of("drafts/", "", "functions/drafts", false),
        // ! keeps again what an earlier line ignored; the last matching line wins.
        Arguments.of("*.yaml\n!keep.yaml", "", "keep.yaml", false),
        Arguments.of("*.yaml\n!keep.yaml", "", "other.yaml", true),
        Arguments.of("!keep.yaml\n*.yaml", "", "keep.yaml", true),
        // As in git, a file in an ignored folder cannot be kept again.
        Arguments.of("drafts/\n!drafts/keep.yaml", "", "drafts/keep.yaml", true),
        // Comments, blank lines and escapes.
        Arguments.of("# hello.yaml\n\n", "", "hello.yaml", false),
        Arguments.of("\\#hash.yaml", "", "#hash.yaml", true),
        Arguments.of("hello.yaml   ", "", "hello.yaml", true));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\" below \"{1}\" on {2}: ignored={3}")
  @MethodSource("cases")
  void followsGitignore(String lines, String base, String path, boolean ignored) {
    assertThat(rules(base, lines).excludes(path)).isEqualTo(ignored);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("precedence")
  void laterRulesWin(List<String> repositoryLines, String specIgnore, String path, boolean ignored) {
    IgnoreRules rules = new IgnoreRules();
    List<ManifestError> errors = new ArrayList<>();
    repositoryLines.forEach(lines -> rules.add("", lines, ".gitfnignore", errors));
    rules.add("", specIgnore, "spec.ignore", errors);
    assertThat(errors).isEmpty();
    assertThat(rules.excludes(path)).isEqualTo(ignored);
  }

  @Test
  void aLineThatIsNotAPatternIsAnErrorWithItsFileAndLine() {
    List<ManifestError> errors = new ArrayList<>();
    IgnoreRules rules = new IgnoreRules().add("functions", "*.md\n[z-a].yaml\n", "functions/.gitfnignore", errors);

    assertThat(errors).extracting(ManifestError::toString).containsExactly(
        "functions/.gitfnignore:2: ignore pattern `[z-a].yaml`: the range z-a in [z-a] runs backwards");
    assertThat(rules.excludes("functions/notes.md")).as("the other lines still apply").isTrue();
  }

  @Test
  @Timeout(60) // guards the suite against a matcher that never returns; it measures nothing
  void aPathologicalPatternIsMatchedInLinearTime() {
    // As a regular expression, [^/]*a[^/]*a... backtracks through every way to split the name: far beyond a minute.
    String pattern = "*a".repeat(40) + "b";
    String name = "a".repeat(4000);

    IgnoreRules rules = rules("", pattern);

    assertThat(rules.excludes("functions/" + name + ".yaml")).isFalse();
    assertThat(rules.excludes("functions/" + name + "b")).isTrue();
  }

  private static IgnoreRules rules(String base, String lines) {
    List<ManifestError> errors = new ArrayList<>();
    IgnoreRules rules = new IgnoreRules().add(base, lines, ".gitfnignore", errors);
    assertThat(errors).isEmpty();
    return rules;
  }

  static Stream<Arguments> precedence() {
    return Stream.of(
        Arguments.of(List.of("*.yaml"), "!hello.yaml", "hello.yaml", false),
        Arguments.of(List.of("!hello.yaml"), "*.yaml", "hello.yaml", true));
  }
}
