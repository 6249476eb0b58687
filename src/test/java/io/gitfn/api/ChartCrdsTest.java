package io.gitfn.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The Helm chart installs the very CRDs of config/crd/, byte for byte, so the two installs never drift apart. */
class ChartCrdsTest {

  private static final String HOW_TO_FIX = "run `mvn -B -Pupdate-crds process-classes`, which writes both, and commit them";

  private final Path projectDir =
      Path.of(System.getProperty("gitfn.project.dir", System.getProperty("user.dir")));
  private final Path committed = projectDir.resolve("config/crd");
  private final Path chart = projectDir.resolve("charts/gitfn/crds");

  @Test
  void theChartHasTheSameCrdFilesAsConfigCrd() throws IOException {
    assertThat(crdFiles(committed)).as("CRDs in config/crd").isNotEmpty();
    assertThat(crdFiles(chart)).as("CRDs in charts/gitfn/crds; %s", HOW_TO_FIX)
        .containsExactlyElementsOf(crdFiles(committed));
  }

  @Test
  void eachChartCrdIsByteIdenticalToConfigCrd() throws IOException {
    for (String name : crdFiles(committed)) {
      assertThat(Files.readAllBytes(chart.resolve(name)))
          .as("charts/gitfn/crds/%s differs from config/crd/%s; %s", name, name, HOW_TO_FIX)
          .isEqualTo(Files.readAllBytes(committed.resolve(name)));
    }
  }

  private static List<String> crdFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yml"))
          .sorted().toList();
    }
  }
}
