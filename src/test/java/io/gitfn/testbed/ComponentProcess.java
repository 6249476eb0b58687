package io.gitfn.testbed;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One test-bed server process (etcd, kube-apiserver, ...) that cannot outlive the JVM.
 *
 * <p>The server runs under a small bash guard in a process group of its own ({@code setsid}). The guard
 * reads its stdin, which is a pipe from this JVM. When the JVM closes it, exits, or is killed with -9, the
 * pipe closes, and the guard sends the server TERM and, 10 s later, KILL. So no server survives its test
 * JVM, whatever way the JVM ends. Benchmarks run gitfn's own controller under the same guard.
 */
public final class ComponentProcess implements AutoCloseable {

  // The same guard as local mode's Function processes.
  private static final String GUARD = io.gitfn.local.GuardedProcess.GUARD;

  private final String name;
  private final Path log;
  private final Process process;

  private ComponentProcess(String name, Path log, Process process) {
    this.name = name;
    this.log = log;
    this.process = process;
  }

  public static ComponentProcess start(String name, Path log, List<String> command) {
    return start(name, log, command, java.util.Map.of());
  }

  public static ComponentProcess start(String name, Path log, List<String> command, java.util.Map<String, String> environment) {
    List<String> guarded = new ArrayList<>(List.of("setsid", "bash", "-c", GUARD, "gitfn-" + name));
    guarded.addAll(command);
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(guarded);
      builder.environment().putAll(environment);
      Process process =
          builder
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      return new ComponentProcess(name, log, process);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + name + ": setsid (util-linux) and bash must be on PATH to run " + command.get(0), e);
    }
  }

  public String name() {
    return name;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * The server itself, below its guard, once it has started: the guard's only descendant whose executable is
   * {@code executable} (the guard and its stdin watcher are bash).
   */
  public java.util.Optional<ProcessHandle> server(String executable) {
    return process.descendants()
        .filter(p -> p.info().command().map(c -> Path.of(c).getFileName().toString().equals(executable)).orElse(false))
        .findFirst();
  }

  /** Waits for a one-off command to end; returns its exit code, or -1 when it ran over {@code timeout}. */
  public int waitForExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        close();
        return -1;
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      return -1;
    }
  }

  /** An error that says which server failed, how, and the end of its log. */
  public IllegalStateException failure(String what) {
    String state = process.isAlive() ? "still running" : "exited with code " + process.exitValue();
    return new IllegalStateException(
        name + " " + what + " (" + state + "); log " + log + ":\n" + tail(40));
  }

  public String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }

  /** Closes each process, last started first. */
  public static void closeAll(java.util.List<ComponentProcess> processes) {
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
  }

  /** Closes the guard's stdin, which stops the server, and waits for it to end. */
  @Override
  public void close() {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.flush();
    } catch (IOException ignored) {
      // the guard is already gone; its pipe closing is what we wanted
    }
    try {
      if (!process.waitFor(Duration.ofSeconds(15).toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
