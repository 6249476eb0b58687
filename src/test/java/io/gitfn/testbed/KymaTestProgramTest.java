package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class KymaTestProgramTest {

  private static final Path SOURCES = TestBedBinaries.projectDir().resolve("src/test/kyma/serverless");

  @Test
  void findsTheFolderTheBuildScriptWritesByTheSameKey() throws Exception {
    Process shell = new ProcessBuilder("bash", "-c", "find . -type f \\( -name '*.go' -o -name go.mod -o -name go.sum"
        + " \\) -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16")
        .directory(SOURCES.toFile()).redirectErrorStream(true).start();
    String scriptKey = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(shell.waitFor()).isZero();

    assertThat(KymaTestProgram.key(SOURCES)).isEqualTo(scriptKey).matches("[0-9a-f]{16}");
  }

  @Test
  void aSuiteHasPassedOnlyWhenTheProgramSaysSoForThatSuite() {
    String succeeded = "{\"level\":\"info\",\"msg\":\"Test suite succeeded: serverless-contract-tests-tracing\"}";
    String skipped = "{\"level\":\"info\",\"msg\":\"Skip test suite suite: tracing\"}";

    assertThat(run(0, succeeded).passed()).isTrue();
    assertThat(run(0, skipped).passed()).as("a misspelt suite skips everything and exits 0").isFalse();
    assertThat(run(1, succeeded).passed()).isFalse();
  }

  @Test
  void theSummaryOfAFailureNamesEachErrorWithItsRuntimeAndStep() {
    KymaTestProgram.Run failed = run(1,
        "{\"level\":\"info\",\"msg\":\"Running Step 0\"}",
        "{\"level\":\"error\",\"msg\":\"while checking answer: 500\",\"runtime\":\"nodejs24\",\"step\":\"check\"}",
        "not json");

    assertThat(failed.summary())
        .contains("serverless-contract-tests-tracing: exit 1 after 3 s")
        .contains("[nodejs24] (check) while checking answer: 500")
        .doesNotContain("Running Step 0");
  }

  private static KymaTestProgram.Run run(int exit, String... lines) {
    return new KymaTestProgram.Run("serverless-contract-tests-tracing", exit, false, Duration.ofSeconds(3),
        Path.of("target/kyma-tests/tracing.log"), List.of(lines));
  }
}
