package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Annotation, label and field-manager keys are spelled once, in {@link Annotations}, {@link Labels} and
 * {@link FieldManagers}: a second spelling drifts, and importing a reconciler for a string ties packages together.
 * Constants are inlined by the compiler, so this reads the sources rather than the classes.
 */
class KeysHaveOneHomeTest {

  private static final Pattern KEY_LITERAL =
      Pattern.compile("\"(gitfn\\.io/[a-z-]+|serverless\\.kyma-project\\.io/[a-z-]+|gitfn-function-controller)\"");

  private final Path sources = Path.of(System.getProperty("gitfn.project.dir", System.getProperty("user.dir")))
      .resolve("src/main/java/io/gitfn");

  @Test
  void noKeyIsSpelledOutsideTheApiPackage() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        if (file.startsWith(sources.resolve("api"))) {
          continue;
        }
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          Matcher key = KEY_LITERAL.matcher(lines.get(i));
          while (key.find()) {
            found.add(sources.relativize(file) + ":" + (i + 1) + ": " + key.group());
          }
        }
      }
    }
    assertThat(found).as("keys spelled outside io.gitfn.api; use Annotations, Labels or FieldManagers").isEmpty();
  }

  @Test
  void theKeysAreTheOnesKymaAndGitfnUsersSee() {
    assertThat(Annotations.REQUESTED_AT).isEqualTo("gitfn.io/requested-at");
    assertThat(Labels.MANAGED).isEqualTo("serverless.kyma-project.io/managed-by=function-controller");
    assertThat(FieldManagers.SYNC).isNotEqualTo(FieldManagers.FUNCTION_CONTROLLER);
  }
}
