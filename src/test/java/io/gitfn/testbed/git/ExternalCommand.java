package io.gitfn.testbed.git;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of an external program in a directory. Only {@code PATH} is inherited from this JVM; the
 * rest of the environment is {@code environment}, so the user's Git and SSH settings cannot leak
 * in. The environment may carry secrets, so it is never logged or put into an exception message.
 */
record ExternalCommand(List<String> argv, Path directory, Map<String, String> environment) {

  private static final Logger LOG = LoggerFactory.getLogger(ExternalCommand.class);
  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  ExternalCommand {
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
  }

  /** Runs the program to its end and returns its standard output. */
  String run() {
    LOG.debug("Running {} in {}", argv, directory);
    try {
      Path stdout = Files.createTempFile("gitfn-cmd-", ".out");
      Path stderr = Files.createTempFile("gitfn-cmd-", ".err");
      try {
        return runWithOutputIn(stdout, stderr);
      } finally {
        Files.deleteIfExists(stdout);
        Files.deleteIfExists(stderr);
      }
    } catch (IOException e) {
      throw new CommandFailedException(argv, notStartedReason(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailedException(argv, "interrupted", e);
    }
  }

  // Output goes to files, not pipes: a chatty program cannot block on a full pipe we do not read.
  private String runWithOutputIn(Path stdout, Path stderr)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .directory(directory.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    Map<String, String> processEnvironment = builder.environment();
    String path = processEnvironment.get("PATH");
    processEnvironment.clear();
    if (path != null) {
      processEnvironment.put("PATH", path);
    }
    processEnvironment.putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new CommandFailedException(
          argv, "no exit within " + TIMEOUT.toSeconds() + "s", null);
    }
    String out = Files.readString(stdout, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      String err = Files.readString(stderr, StandardCharsets.UTF_8);
      throw new CommandFailedException(argv, process.exitValue(), out, err);
    }
    return out;
  }

  private String notStartedReason(IOException e) {
    if (!Files.isDirectory(directory)) {
      return "working directory " + directory + " does not exist";
    }
    return "`" + argv.get(0) + "` is not installed or not on PATH (" + e.getMessage() + ")";
  }
}
