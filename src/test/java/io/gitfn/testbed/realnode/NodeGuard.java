package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The process that owns the real node's changes to this machine: {@code node-guard.sh}, under {@code setsid}
 * with a pipe from this JVM on its stdin, as {@link io.gitfn.testbed.ComponentProcess}'s guard holds one. It takes the machine's real-node lock, records the host's state,
 * sets up the bridge and the isolation rules, and once the pipe closes, however the JVM ends, runs
 * {@code teardown.sh}. {@link #teardown()} runs the same script from the JVM on a normal close.
 *
 * <p>The scripts are copied into {@code <run>/bin/} beside a {@code node.env} that names this node's bridge,
 * ranges, ports and binaries, so {@code bash <run>/bin/teardown.sh} also cleans up by hand.
 */
final class NodeGuard implements AutoCloseable {

  static final List<String> SCRIPTS =
      List.of("node-guard.sh", "host-state.sh", "host-record.sh", "network-up.sh", "teardown.sh");

  private final Path dir;
  private final Process guard;

  private NodeGuard(Path dir, Process guard) {
    this.dir = dir;
    this.guard = guard;
  }

  /**
   * Writes the scripts and {@code node.env}, starts the guard and waits until the host side is ready.
   *
   * @param environment the values {@code node.env} holds, by name
   */
  static NodeGuard start(Path dir, Map<String, String> environment, Duration timeout) {
    Path bin = dir.resolve("bin");
    Path log = dir.resolve("logs/node-guard.log");
    try {
      Files.createDirectories(bin);
      Files.createDirectories(log.getParent());
      for (String script : SCRIPTS) {
        try (InputStream in = NodeGuard.class.getResourceAsStream(script)) {
          if (in == null) {
            throw new IllegalStateException("the test resource io/gitfn/testbed/realnode/" + script + " is missing");
          }
          Files.write(bin.resolve(script), in.readAllBytes());
        }
        Files.setPosixFilePermissions(bin.resolve(script), PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      Map<String, String> env = new LinkedHashMap<>();
      env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
      env.put("RUN_DIR", dir.toString());
      env.putAll(environment);
      StringBuilder file = new StringBuilder("# Written by NodeGuard for the scripts beside it.\n");
      env.forEach((name, value) -> file.append(name).append("='").append(value.replace("'", "'\\''")).append("'\n"));
      Files.writeString(bin.resolve("node.env"), file.toString());

      Process guard = new ProcessBuilder("setsid", "bash", bin.resolve("node-guard.sh").toString())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      NodeGuard started = new NodeGuard(dir, guard);
      started.awaitReady(timeout, log);
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the real node's guard in " + dir, e);
    }
  }

  private void awaitReady(Duration timeout, Path log) {
    Path ready = dir.resolve("guard.ready");
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.exists(ready)) {
      if (!guard.isAlive() || System.nanoTime() > deadline) {
        String state = guard.isAlive() ? "not ready within " + timeout.toSeconds() + " s" : "exited with " + guard.exitValue();
        close();
        throw new IllegalStateException("the real node's guard " + state + "; its log " + log + ":\n" + read(log));
      }
      sleep(20);
    }
  }

  /**
   * Runs {@code teardown.sh} and returns its output. Null when it found the machine clean; otherwise its output,
   * which ends with what is still there.
   */
  String teardown() {
    try {
      Process teardown = new ProcessBuilder("bash", dir.resolve("bin/teardown.sh").toString())
          .redirectErrorStream(true)
          .start();
      String output = new String(teardown.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!teardown.waitFor(2, TimeUnit.MINUTES)) {
        teardown.destroyForcibly();
        return output + "\n(teardown.sh did not end within 2 minutes)";
      }
      Files.writeString(dir.resolve("logs/teardown.log"), output);
      return teardown.exitValue() == 0 ? null : output;
    } catch (IOException e) {
      return "cannot run teardown.sh: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while teardown.sh ran";
    }
  }

  /** Closes the guard's pipe: it runs teardown.sh (again: it finds nothing left) and releases the lock. */
  @Override
  public void close() {
    try (OutputStream stdin = guard.getOutputStream()) {
      stdin.flush();
    } catch (IOException ignored) {
      // the guard is gone already; its pipe closing is what we wanted
    }
    try {
      if (!guard.waitFor(3, TimeUnit.MINUTES)) {
        guard.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
