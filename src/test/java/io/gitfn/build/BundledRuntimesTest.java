package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BundledRuntimesTest {

  private static final Path RESOURCES = Path.of("src/main/resources/io/gitfn/runtimes");
  // What a developer may have installed beside the sources; local mode skips the same names.
  private static final Set<String> INSTALLED = Set.of("node_modules", "site", "__pycache__", ".pytest_cache");

  @ParameterizedTest(name = "{0}")
  @CsvSource({"nodejs", "python"})
  void theImageGetsEveryFileOfTheRuntimeInTheJar(String folder) throws IOException {
    Path root = RESOURCES.resolve(folder);
    List<String> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(p -> Stream.of(p.split("/")).noneMatch(INSTALLED::contains)).sorted().toList();
    }
    List<String> listed = folder.equals("nodejs") ? BundledRuntimes.NODEJS : BundledRuntimes.PYTHON;

    assertThat(listed).as("BundledRuntimes.%s must list the runtime's files", folder.toUpperCase())
        .containsExactlyInAnyOrderElementsOf(files);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"nodejs", "python"})
  void theContentIsTheResourcesText(String folder) throws IOException {
    RuntimeSource source = folder.equals("nodejs") ? RuntimeSources.bundled().nodejs() : RuntimeSources.bundled().python();

    source.files().forEach((path, content) -> {
      try {
        assertThat(content).as(path).isEqualTo(Files.readString(RESOURCES.resolve(folder).resolve(path)));
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }
}
