package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code gitfn pack} refuses before it reads a file or calls a registry. The push is DependencyImageIT's. */
class PackCommandTest {

  private static final String DIGEST = "sha256:" + "ab".repeat(32);

  @TempDir
  Path dir;

  @Test
  void aBaseImageByTagIsRefused() {
    CliRun run = pack("--runtime", "nodejs22", "--installed", dir.toString(), "--base", "registry.local/node:22",
        "--runtime-image", "registry.local/team/gitfn/dependencies:runtime-1", "--to",
        "registry.local/team/gitfn/dependencies:deps-1");

    assertThat(run.exitCode()).isEqualTo(PackCommand.FAILED);
    assertThat(run.err()).isEqualTo("Error: --base registry.local/node:22 names a tag; name the base image by"
        + " digest, so that the image says what the packages were installed on\n");
  }

  @Test
  void anUnknownRuntimeIsNamedWithTheKnownOnes() {
    CliRun run = pack("--runtime", "cobol", "--installed", dir.toString(), "--base", "registry.local/node@" + DIGEST,
        "--runtime-image", "registry.local/team/gitfn/dependencies:runtime-1", "--to",
        "registry.local/team/gitfn/dependencies:deps-1");

    assertThat(run.exitCode()).isEqualTo(PackCommand.FAILED);
    assertThat(run.err()).startsWith("Error: --runtime cobol is none of nodejs20, nodejs22");
  }

  @Test
  void aFolderThatIsNotAnInstallsFailsNamingIt() {
    CliRun run = pack("--runtime", "nodejs22", "--installed", dir.toString(), "--base", "registry.local/node@" + DIGEST,
        "--runtime-image", "registry.local/team/gitfn/dependencies:runtime-1", "--to",
        "registry.local/team/gitfn/dependencies:deps-1");

    assertThat(run.exitCode()).isEqualTo(PackCommand.FAILED);
    assertThat(run.err()).isEqualTo("Error: " + dir.resolve("runtime") + " is not a folder\n");
  }

  @Test
  void besideAnInstallThatFailedItPacksNothingAndSaysSo() throws Exception {
    Path exit = Files.writeString(dir.resolve("exit"), "3\n");

    CliRun run = pack("--runtime", "nodejs22", "--installed", dir.toString(), "--base", "127.0.0.1:9/node@" + DIGEST,
        "--runtime-image", "127.0.0.1:9/team/gitfn/dependencies:runtime-1", "--to",
        "127.0.0.1:9/team/gitfn/dependencies:deps-1", "--wait-for", exit.toString());

    assertThat(run.exitCode()).isEqualTo(PackCommand.FAILED);
    assertThat(run.err()).isEqualTo("Error: the install ended with exit code 3; nothing was packed\n");
  }

  @Test
  void anExitFileThatHoldsNoExitCodeIsRefusedNamingIt() throws Exception {
    Path exit = Files.writeString(dir.resolve("exit"), "0".repeat(40));

    CliRun run = pack("--runtime", "nodejs22", "--installed", dir.toString(), "--base", "127.0.0.1:9/node@" + DIGEST,
        "--runtime-image", "127.0.0.1:9/team/gitfn/dependencies:runtime-1", "--to",
        "127.0.0.1:9/team/gitfn/dependencies:deps-1", "--wait-for", exit.toString());

    assertThat(run.exitCode()).isEqualTo(PackCommand.FAILED);
    assertThat(run.err()).isEqualTo("Error: " + exit + " should hold the install's exit code, and holds more than 16"
        + " bytes\n");
  }

  private static CliRun pack(String... arguments) {
    String[] all = new String[arguments.length + 1];
    all[0] = "pack";
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    return CliRun.of(all);
  }
}
