package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A short command on the host, for the real node's tests: its output, or a failure that shows it. */
final class HostCommand {

  private HostCommand() {}

  static String run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("`" + String.join(" ", command) + "` ran over 60 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "`" + String.join(" ", command) + "` exited with " + process.exitValue() + ":\n" + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + List.of(command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
