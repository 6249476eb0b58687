package io.gitfn.local;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process that cannot outlive gitfn.
 *
 * <p>It runs under a small bash guard in a process group of its own ({@code setsid}). The guard reads its stdin,
 * a pipe from this JVM. When the JVM closes it, exits, or is killed with -9, the pipe closes and the guard sends
 * the child TERM (so it drains its requests) and, 10 s later, KILL to the whole group. So no Function process
 * survives gitfn, however gitfn ends.
 */
public final class GuardedProcess implements AutoCloseable {

  /**
   * The guard, for {@code setsid bash -c GUARD NAME COMMAND...}: it runs COMMAND and stops it when its stdin closes.
   * The child gets /dev/null as stdin; the watcher subshell keeps the pipe from the JVM (<&0). The test bed's
   * servers run under the same guard.
   */
  public static final String GUARD = """
      "$@" </dev/null &
      child=$!
      trap '' TERM INT
      { while read -r _; do :; done
        kill -TERM "$child" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$child" 2>/dev/null || exit 0; sleep 0.2; done
        kill -KILL -- -$$ 2>/dev/null
      } <&0 &
      watcher=$!
      disown "$watcher"
      wait "$child"
      code=$?
      kill -KILL "$watcher" 2>/dev/null
      exit "$code"
      """;

  private final Path log;
  private final Process process;

  private GuardedProcess(Path log, Process process) {
    this.log = log;
    this.process = process;
  }

  /**
   * Starts {@code command} in {@code directory} with {@code env} added to the little of the user's environment a
   * Function may see ({@link ChildEnvironment}), its output appended to {@code log}.
   */
  static GuardedProcess start(List<String> command, Path directory, Map<String, String> env, Path log) {
    List<String> guarded = new ArrayList<>(List.of("setsid", "bash", "-c", GUARD, "gitfn-function"));
    guarded.addAll(command);
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(guarded).directory(directory.toFile());
      ChildEnvironment.forFunction(builder.environment());
      builder.environment().putAll(env);
      Process process = builder.redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      return new GuardedProcess(log, process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0) + ": setsid (util-linux) and bash must be on"
          + " PATH", e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /** The exit code, once the process ended. */
  int exitValue() {
    return process.exitValue();
  }

  /** The last lines of the process's output, for an error message. */
  String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(" + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  /** Asks the child to stop (TERM, then KILL after 10 s) and waits for it. */
  @Override
  public void close() {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.flush();
    } catch (IOException ignored) {
      // the guard is gone already; its pipe closing is what we wanted
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
