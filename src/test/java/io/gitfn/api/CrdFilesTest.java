package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The CRDs committed in config/crd/ are exactly the ones the build generates from the Java types. */
class CrdFilesTest {

  private static final String HOW_TO_FIX = "run `mvn -B -Pupdate-crds process-classes` and commit config/crd/";

  private final Path projectDir =
      Path.of(System.getProperty("gitfn.project.dir", System.getProperty("user.dir")));
  private final Path generated = projectDir.resolve("target/classes/META-INF/fabric8");
  private final Path committed = projectDir.resolve("config/crd");

  @Test
  void everyGeneratedCrdIsCommittedAndNothingElse() throws IOException {
    Set<String> generatedNames = crdFiles(generated);
    Set<String> committedNames = crdFiles(committed);
    assertThat(generatedNames).as("CRDs generated into %s", generated).isNotEmpty();

    assertThat(difference(generatedNames, committedNames))
        .as("generated CRDs missing from config/crd/; %s", HOW_TO_FIX)
        .isEmpty();
    assertThat(difference(committedNames, generatedNames))
        .as("CRDs in config/crd/ that the build no longer generates; delete them, %s", HOW_TO_FIX)
        .isEmpty();
  }

  @Test
  void everyCommittedCrdMatchesTheGeneratedOne() throws IOException {
    for (String name : crdFiles(generated)) {
      Path mine = committed.resolve(name);
      assertThat(mine).as("config/crd/%s is missing; %s", name, HOW_TO_FIX).exists();
      assertThat(Files.readString(mine))
          .as("config/crd/%s differs from the generated CRD; %s", name, HOW_TO_FIX)
          .isEqualTo(Files.readString(generated.resolve(name)));
    }
  }

  private static Set<String> crdFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith("-v1.yml"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Set<String> difference(Set<String> these, Set<String> those) {
    Set<String> rest = new TreeSet<>(these);
    rest.removeAll(those);
    return rest;
  }
}
