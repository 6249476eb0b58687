package io.gitfn.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
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
    assertThat(new IgnoreRules().add(base, lines).excludes(path)).isEqualTo(ignored);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("precedence")
  void laterRulesWin(List<String> repositoryLines, String specIgnore, String path, boolean ignored) {
    IgnoreRules rules = new IgnoreRules();
    repositoryLines.forEach(lines -> rules.add("", lines));
    rules.add("", specIgnore);
    assertThat(rules.excludes(path)).isEqualTo(ignored);
  }

  static Stream<Arguments> precedence() {
    return Stream.of(
        Arguments.of(List.of("*.yaml"), "!hello.yaml", "hello.yaml", false),
        Arguments.of(List.of("!hello.yaml"), "*.yaml", "hello.yaml", true));
  }
}
