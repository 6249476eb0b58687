package io.gitfn.rollback;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The user's {@code git} client, run as a process with the user's environment, so that their configuration,
 * credential helpers, SSH agent and identity apply. Standard input is empty: a password prompt goes to the
 * terminal (git reads it from {@code /dev/tty}), or fails at once where there is none.
 */
public final class GitCommandLine {

  private final Map<String, String> overrides;

  private GitCommandLine(Map<String, String> overrides) {
    this.overrides = Map.copyOf(overrides);
  }

  /** {@code git} with this process's environment, as typed in the user's shell. */
  public static GitCommandLine fromEnvironment() {
    return new GitCommandLine(Map.of());
  }

  /** {@code git} with this process's environment and {@code overrides} on top, as a test sets up a user. */
  public static GitCommandLine withEnvironment(Map<String, String> overrides) {
    return new GitCommandLine(overrides);
  }

  /** Runs {@code git <arguments>} in {@code directory} to its end. */
  GitResult run(Path directory, String... arguments) throws InterruptedException {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(arguments));
    try {
      Path out = Files.createTempFile("gitfn-git-", ".out");
      Path err = Files.createTempFile("gitfn-git-", ".err");
      try {
        // Files, not pipes: a chatty git cannot block on a full pipe nobody reads.
        ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
        builder.environment().putAll(overrides);
        Process process = start(builder);
        int exitCode = process.waitFor();
        return new GitResult(exitCode, Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Process start(ProcessBuilder builder) {
    try {
      return builder.start();
    } catch (IOException e) {
      throw new RollbackException("cannot run git (" + e.getMessage() + "): a revert in Git runs your own git"
          + " client, so install it and put it on PATH; --pin needs no git");
    }
  }
}
