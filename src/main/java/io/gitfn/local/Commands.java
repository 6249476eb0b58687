package io.gitfn.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an installer (npm, pip) to completion within a time limit, with an installer's share of the user's
 * environment ({@link ChildEnvironment}), and turns a failure into a message with its last output lines.
 */
final class Commands {

  static final Duration LIMIT = Duration.ofMinutes(10);

  private Commands() {
  }

  static void run(List<String> command, Path directory) throws LocalException {
    run(command, directory, LIMIT);
  }

  static void run(List<String> command, Path directory, Duration limit) throws LocalException {
    Process process;
    Path output;
    try {
      // To a file, not a pipe: reading a pipe to its end would wait for the installer however long it hangs.
      output = Files.createTempFile("gitfn-install-", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
          .redirectOutput(output.toFile());
      ChildEnvironment.forInstaller(builder.environment());
      process = builder.start();
    } catch (IOException e) {
      throw new LocalException(command.get(0) + " is not installed or not on PATH (" + e.getMessage() + ")");
    }
    try {
      process.getOutputStream().close();
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new LocalException(String.join(" ", command) + " ran longer than " + limit.toSeconds() + " s and was"
            + " stopped:\n" + tail(Files.readString(output), 15));
      }
      if (process.exitValue() != 0) {
        throw new LocalException(String.join(" ", command) + " failed with exit code " + process.exitValue() + ":\n"
            + tail(Files.readString(output), 15));
      }
    } catch (IOException e) {
      throw new LocalException(String.join(" ", command) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LocalException(String.join(" ", command) + " was interrupted");
    } finally {
      try {
        Files.deleteIfExists(output);
      } catch (IOException e) {
        // a temporary file; the system's cleaner takes it
      }
    }
  }

  static String tail(String text, int lines) {
    List<String> all = text.strip().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
