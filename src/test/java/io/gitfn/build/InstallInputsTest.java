package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import org.junit.jupiter.api.Test;

/**
 * What an install reads of a Function's dependency files: its package's own name and version do not decide what npm
 * installs, so two Functions that differ only there share one dependency image.
 */
class InstallInputsTest {

  private static final FunctionRuntime NODE = FunctionRuntime.NODEJS22;

  @Test
  void aPackagesNameAndVersionAreLeftOutAndEverythingElseKeptInOrder() {
    String named = "{\"name\": \"orders\", \"version\": \"1.2.3\", \"dependencies\": {\"ms\": \"2.1.3\"},"
        + " \"overrides\": {\"ms\": \"2.1.3\"}}";

    assertThat(InstallInputs.dependencies(NODE, named)).isEqualTo("""
        {
          "dependencies" : {
            "ms" : "2.1.3"
          },
          "overrides" : {
            "ms" : "2.1.3"
          }
        }
        """);
  }

  @Test
  void twoFunctionsThatDifferOnlyInTheirPackagesNamesInstallTheSameFile() {
    assertThat(InstallInputs.dependencies(NODE, "{\"name\": \"orders\", \"dependencies\": {\"ms\": \"2.1.3\"}}"))
        .isEqualTo(InstallInputs.dependencies(NODE, "{\"name\":\"payments\",\"dependencies\":{\"ms\":\"2.1.3\"}}"));
  }

  @Test
  void aFileWithNeitherIsLeftByteForByteSoItsKeyDoesNotMove() {
    String unnamed = "{\"dependencies\":   {\"ms\": \"2.1.3\"}}\n";

    assertThat(InstallInputs.dependencies(NODE, unnamed)).isSameAs(unnamed);
  }

  @Test
  void whatIsNotAJsonObjectIsLeftForNpmToRefuse() {
    assertThat(InstallInputs.dependencies(NODE, "{\"name\": \"orders\",")).isEqualTo("{\"name\": \"orders\",");
    assertThat(InstallInputs.dependencies(NODE, "[\"name\"]")).isEqualTo("[\"name\"]");
    assertThat(InstallInputs.dependencies(NODE, "{}")).isEqualTo("{}");
  }

  @Test
  void aLockFileLosesTheRootsNameAndVersionAtItsTopAndAsThePackageWithNoPath() {
    String lock = """
        {"name": "orders", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {
          "": {"name": "orders", "version": "1.0.0", "dependencies": {"ms": "2.1.3"}},
          "node_modules/ms": {"version": "2.1.3", "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz"}}}
        """;

    String read = InstallInputs.lockFile(NODE, lock);

    assertThat(read).doesNotContain("orders").doesNotContain("1.0.0")
        .contains("\"version\" : \"2.1.3\"").as("a dependency's version stays");
    assertThat(read).isEqualTo(InstallInputs.lockFile(NODE, lock.replace("orders", "payments")));
  }

  @Test
  void pythonsFilesAreLeftAlone() {
    String requirements = "{\"name\": \"not json for pip\"}";

    assertThat(InstallInputs.dependencies(FunctionRuntime.PYTHON312, requirements)).isSameAs(requirements);
    assertThat(InstallInputs.lockFile(FunctionRuntime.PYTHON312, requirements)).isSameAs(requirements);
  }
}
