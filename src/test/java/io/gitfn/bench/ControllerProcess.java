package io.gitfn.bench;

import io.gitfn.testbed.ComponentProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code java -jar target/gitfn.jar controller} as a child process, under the test bed's guard: it stops when
 * closed, and when the benchmark's JVM dies in any way.
 */
final class ControllerProcess implements AutoCloseable {

  /**
   * The JVM flags gitfn recommends for the controller (docs/benchmarks.md; the image will carry them): a serial
   * collector and a bounded heap, metaspace and code cache, as fits a controller whose live set is tens of MiB and
   * whose work is I/O bound. Without them, ergonomics on a 24 GiB machine size the heap for throughput and the
   * process reaches 500 to 700 MiB around a 100 MiB live set.
   */
  static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-Xms32m", "-Xmx96m",
      "-XX:MaxMetaspaceSize=96m", "-XX:ReservedCodeCacheSize=48m", "-XX:TieredStopAtLevel=1", "-Xss512k",
      "-XX:MaxDirectMemorySize=32m", "-XX:+ExitOnOutOfMemoryError");

  /**
   * Native memory tracking breaks the resident memory down by category, but costs memory of its own (about 5 MiB
   * for itself, plus a header on every malloc), which a production controller does not pay. So it is off unless
   * {@code -Dbench.nmt=true} asks for the breakdown.
   */
  static final boolean NATIVE_MEMORY_TRACKING = Boolean.getBoolean("bench.nmt");
  /** The environment the image sets for the JVM beyond its flags (docs/image.md). */
  static final Map<String, String> ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");
  private static final String READY = "gitfn controller running";
  // "Total: reserved=..KB, committed=..KB" and "-   Java Heap (reserved=..KB, committed=..KB)"
  private static final Pattern NMT_LINE =
      Pattern.compile("^(?:-\\s+)?([A-Za-z][A-Za-z ]*?):? \\(?reserved=\\d+KB, committed=(\\d+)KB");

  // "... running against https://...; webhooks at http://127.0.0.1:1234/hooks/; health and metrics at http://..."
  private static final Pattern DASHBOARD = Pattern.compile("dashboard at (\\S+)");
  private static final Pattern ENDPOINTS = Pattern.compile("webhooks at (\\S+); health and metrics at (\\S+)");

  private final ComponentProcess guarded;
  private final ProcessHandle java;
  private final URI webhooks;
  private final URI operations;
  private final Path log;

  private ControllerProcess(ComponentProcess guarded, ProcessHandle java, URI webhooks, URI operations, Path log) {
    this.log = log;
    this.guarded = guarded;
    this.java = java;
    this.webhooks = webhooks;
    this.operations = operations;
  }

  /** Starts the controller against the cluster of {@code kubeconfig} and returns once it runs. */
  static ControllerProcess start(Path jar, Path kubeconfig, Path cacheDir, Path log, Duration timeout)
      throws IOException, InterruptedException {
    return start(jar, kubeconfig, cacheDir, log, timeout, JVM_FLAGS, List.of());
  }

  /**
   * Starts the controller with {@code jvmFlags} instead of {@link #JVM_FLAGS} and {@code arguments} after the
   * ones every benchmark gives it, and returns once it runs.
   */
  static ControllerProcess start(Path jar, Path kubeconfig, Path cacheDir, Path log, Duration timeout,
      List<String> jvmFlags, List<String> arguments) throws IOException, InterruptedException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing; the bench profile builds it in `package`");
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmFlags);
    if (NATIVE_MEMORY_TRACKING) {
      command.add("-XX:NativeMemoryTracking=summary");
    }
    command.addAll(List.of("-jar", jar.toString(), "controller", "--kubeconfig", kubeconfig.toString(),
        "--webhook-bind", "127.0.0.1", "--webhook-port", "0", "--metrics-bind", "127.0.0.1", "--metrics-port", "0",
        "--dashboard-port", "0",
        "--cache-dir", cacheDir.toString()));
    command.addAll(arguments);
    ComponentProcess guarded = ComponentProcess.start("controller", log, command, ENVIRONMENT);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (System.nanoTime() < deadline && guarded.isAlive()) {
        String text = Files.isRegularFile(log) ? Files.readString(log) : "";
        Matcher endpoints = ENDPOINTS.matcher(text);
        if (text.contains(READY) && endpoints.find()) {
          ProcessHandle java = guarded.server("java")
              .orElseThrow(() -> new IllegalStateException("the controller runs, but no java is below its guard"));
          return new ControllerProcess(guarded, java, URI.create(endpoints.group(1)), URI.create(endpoints.group(2)),
              log);
        }
        Thread.sleep(100); // waiting for a start, not measuring anything
      }
      throw new IllegalStateException("the controller did not start within " + timeout.toSeconds() + " s; log "
          + log + ":\n" + guarded.tail(40));
    } catch (IOException | InterruptedException | RuntimeException e) {
      guarded.close();
      throw e;
    }
  }

  long pid() {
    return java.pid();
  }

  /** The webhook receiver's base, ending in {@code /hooks/}. */
  URI webhooks() {
    return webhooks;
  }

  /** Where the dashboard is, ending in {@code /}, from the controller's log. */
  URI dashboard() throws IOException {
    Matcher m = DASHBOARD.matcher(Files.readString(log));
    if (!m.find()) {
      throw new IllegalStateException("the controller's log names no dashboard: " + log);
    }
    return URI.create(m.group(1));
  }

  /** Where {@code /metrics}, {@code /healthz} and {@code /readyz} are. */
  URI operations() {
    return operations;
  }

  /** CPU time the process has used so far, user and system, from {@code /proc/<pid>/stat}. */
  Duration cpu() throws IOException {
    return ProcessCpu.of(pid());
  }

  /** The {@code Vm*} lines of {@code /proc/<pid>/status}, in KiB: VmRSS, VmHWM and the rest. */
  Map<String, Long> memoryKib() throws IOException {
    return memoryKib(pid());
  }

  /** The {@code Vm*} lines of {@code /proc/<pid>/status} of any process, in KiB. */
  static Map<String, Long> memoryKib(long pid) throws IOException {
    Map<String, Long> memory = new TreeMap<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("Vm") && line.endsWith(" kB")) {
        String[] parts = line.split(":\\s+");
        memory.put(parts[0], Long.parseLong(parts[1].replace(" kB", "").strip()));
      }
    }
    return memory;
  }

  /**
   * What native memory tracking counts as committed, in KiB, by category ({@code Java Heap}, {@code Class},
   * {@code Thread}, ...) and as {@code Total}; empty when the tracking is off.
   */
  Map<String, Long> committedKib() throws IOException, InterruptedException {
    Map<String, Long> committed = new LinkedHashMap<>();
    if (!NATIVE_MEMORY_TRACKING) {
      return committed;
    }
    for (String line : jcmd("VM.native_memory", "summary").split("\n")) {
      Matcher m = NMT_LINE.matcher(line);
      if (m.find()) {
        committed.put(m.group(1).strip(), Long.parseLong(m.group(2)));
      }
    }
    return committed;
  }

  /** Runs {@code jcmd <pid> <command...>} and returns what it printed. */
  String jcmd(String... command) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid())));
    argv.addAll(List.of(command));
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes());
    process.waitFor();
    return out;
  }

  /** Stops the controller as the kubelet would, with SIGTERM, and waits until it has exited. */
  @Override
  public void close() {
    guarded.close();
  }
}
