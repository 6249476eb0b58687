package io.gitfn.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.ConditionReason;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/troubleshooting.md has a heading for every reason a Function or a FunctionRepository condition can carry. */
class TroubleshootingDocsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();
  // The reconciler's reasons: passed to set(...), retrying(...), failed(...), stalled(...) or InvalidSourceException.
  private static final List<Pattern> REPOSITORY_REASONS = List.of(
      Pattern.compile("InvalidSourceException\\(\"([A-Za-z]+)\""),
      Pattern.compile("\\b(?:retrying|stalled)\\(\"([A-Za-z]+)\""),
      Pattern.compile("\\bfailed\\(revision, \"([A-Za-z]+)\""),
      Pattern.compile("\\bset\\(\"(?:Ready|Reconciling|Stalled)\", \"(?:True|False|Unknown)\", \"([A-Za-z]+)\""),
      Pattern.compile("\\bevent\\(\"(?:Normal|Warning)\", \"([A-Za-z]+)\""));

  @Test
  void everyFunctionReasonHasAHeading() throws Exception {
    Set<String> reasons = new TreeSet<>();
    for (Field field : ConditionReason.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        reasons.add((String) field.get(null));
      }
    }
    assertThat(reasons).hasSizeGreaterThan(20);
    assertThat(missingHeadings(reasons)).as("Function reasons without a heading in docs/troubleshooting.md").isEmpty();
  }

  @Test
  void everyRepositoryReasonHasAHeading() throws IOException {
    String source = Files.readString(ROOT.resolve("src/main/java/io/gitfn/reconcile/FunctionRepositoryReconciler.java"));
    Set<String> reasons = new TreeSet<>();
    for (Pattern pattern : REPOSITORY_REASONS) {
      Matcher m = pattern.matcher(source);
      while (m.find()) {
        reasons.add(m.group(1));
      }
    }
    assertThat(reasons).contains("InvalidRevision", "ApplyRefused", "SourceFailed", "SecretNotFound", "Succeeded");
    assertThat(missingHeadings(reasons)).as("FunctionRepository reasons without a heading in docs/troubleshooting.md")
        .isEmpty();
  }

  private static Set<String> missingHeadings(Set<String> reasons) throws IOException {
    Set<String> headings = new TreeSet<>();
    for (String line : Files.readAllLines(ROOT.resolve("docs/troubleshooting.md"))) {
      Matcher heading = Pattern.compile("^#{2,4}\\s+`?([A-Za-z]+)`?\\s*$").matcher(line);
      if (heading.matches()) {
        headings.add(heading.group(1));
      }
    }
    Set<String> missing = new TreeSet<>(reasons);
    missing.removeAll(headings);
    return missing;
  }
}
