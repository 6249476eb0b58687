package io.gitfn.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.ConditionReason;
import io.gitfn.api.repository.RepositoryConditionReason;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/troubleshooting.md has a heading for every reason a Function or a FunctionRepository condition can carry. */
class TroubleshootingDocsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();

  @Test
  void everyFunctionReasonHasAHeading() throws Exception {
    Set<String> reasons = constantsOf(ConditionReason.class);
    assertThat(reasons).hasSizeGreaterThan(20);
    assertThat(missingHeadings(reasons)).as("Function reasons without a heading in docs/troubleshooting.md").isEmpty();
  }

  @Test
  void everyRepositoryReasonHasAHeading() throws Exception {
    Set<String> reasons = constantsOf(RepositoryConditionReason.class);
    assertThat(reasons).contains("InvalidRevision", "ApplyRefused", "SourceFailed", "SecretNotFound", "Succeeded");
    assertThat(missingHeadings(reasons)).as("FunctionRepository reasons without a heading in docs/troubleshooting.md")
        .isEmpty();
  }

  private static Set<String> constantsOf(Class<?> reasons) throws IllegalAccessException {
    Set<String> values = new TreeSet<>();
    for (Field field : reasons.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        values.add((String) field.get(null));
      }
    }
    return values;
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
