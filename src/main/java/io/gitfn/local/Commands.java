package io.gitfn.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an installer (npm, pip) to completion, and turns a failure into a message with its last output lines. */
final class Commands {

  private static final Duration LIMIT = Duration.ofMinutes(10);

  private Commands() {
  }

  static void run(List<String> command, Path directory) throws LocalException {
    Process process;
    try {
      process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new LocalException(command.get(0) + " is not installed or not on PATH (" + e.getMessage() + ")");
    }
    try {
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new LocalException(String.join(" ", command) + " ran longer than " + LIMIT.toMinutes() + " minutes");
      }
      if (process.exitValue() != 0) {
        throw new LocalException(String.join(" ", command) + " failed with exit code " + process.exitValue() + ":\n"
            + tail(new String(output, StandardCharsets.UTF_8), 15));
      }
    } catch (IOException e) {
      throw new LocalException(String.join(" ", command) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LocalException(String.join(" ", command) + " was interrupted");
    }
  }

  static String tail(String text, int lines) {
    List<String> all = text.strip().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
