package io.gitfn.packer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the pack container reads the install's end, which the tenant's package scripts could write too. */
class InstallExitTest {

  @TempDir
  Path dir;

  @Test
  void theWaitEndsWhenTheInstallWritesItsExitCode() throws Exception {
    Path exit = dir.resolve("exit");
    CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> {
      try {
        return InstallExit.await(exit);
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(100);
    assertThat(code).as("no file yet").isNotDone();

    // As the install's script writes it: whole, renamed into place (a reader never sees it half written).
    Path written = Files.writeString(dir.resolve("exit.tmp"), "0\n");
    Files.move(written, exit, StandardCopyOption.ATOMIC_MOVE);

    assertThat(code.get(5, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void aFileOfMoreThanSixteenBytesIsReadNoFurther() {
    assertThatThrownBy(() -> InstallExit.parse(Path.of("exit"), "1".repeat(17).getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(IOException.class)
        .hasMessage("exit should hold the install's exit code, and holds more than 16 bytes");
  }

  @Test
  void whatIsNotAnExitCodeIsQuotedWithoutItsControlCharacters() {
    assertThatThrownBy(() -> InstallExit.parse(Path.of("exit"), "ok\u001b[2J".getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(IOException.class)
        .hasMessage("exit should hold the install's exit code, and holds 'ok?[2J'");
  }

  @Test
  void anExitCodeIsReadWithItsNewline() throws IOException {
    assertThat(InstallExit.parse(Path.of("exit"), "137\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo(137);
  }
}
