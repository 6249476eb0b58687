package io.gitfn.reconcile;

import io.gitfn.testbed.ComponentProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code gitfn controller} as a child JVM from the test class path, under the test bed's guard (it cannot outlive
 * the test JVM), with its health and metrics URI and its instance name read from its log.
 */
final class ControllerJvm implements AutoCloseable {

  // In text and in JSON lines alike: a URI ends at a space or a quote.
  private static final Pattern RUNNING =
      Pattern.compile("gitfn controller running .*webhooks at (http://[^\\s\";]+); health and metrics at (http://[^\\s\"]+)");
  // With leader election the line goes on ", once it holds Lease ..."; without, it ends at the name.
  private static final Pattern INSTANCE = Pattern.compile("reconciling .* as ([^\\s,\"]+)");
  // Small and quick to start: two of these share two cores with the test bed.
  private static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-Xmx160m", "-XX:TieredStopAtLevel=1",
      "-Xss512k");
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ComponentProcess guarded;
  private final Path log;
  private final URI webhooks;
  private final URI operations;
  private final String instance;

  private ControllerJvm(ComponentProcess guarded, Path log, URI webhooks, URI operations, String instance) {
    this.guarded = guarded;
    this.log = log;
    this.webhooks = webhooks;
    this.operations = operations;
    this.instance = instance;
  }

  /** Starts {@code gitfn controller} with {@code flags} added and returns once it runs. */
  static ControllerJvm start(String name, Path kubeconfig, Path dir, List<String> flags)
      throws IOException, InterruptedException {
    return start(name, kubeconfig, dir, flags, Map.of());
  }

  /** The same, with {@code env} added to its environment, as a Pod's downward API would. */
  static ControllerJvm start(String name, Path kubeconfig, Path dir, List<String> flags, Map<String, String> env)
      throws IOException, InterruptedException {
    Path log = dir.resolve(name + ".log");
    List<String> command = new ArrayList<>();
    if (!env.isEmpty()) {
      command.add("env"); // execs java with the variables set, so the guard still stops java itself
      env.forEach((key, value) -> command.add(key + "=" + value));
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.gitfn.cli.Main", "controller",
        "--kubeconfig", kubeconfig.toString(), "--cache-dir", dir.resolve(name + "-mirrors").toString(),
        "--webhook-bind", "127.0.0.1", "--webhook-port", "0", "--metrics-bind", "127.0.0.1", "--metrics-port", "0",
        "--dashboard-port", "0"));
    command.addAll(flags);
    ComponentProcess guarded = ComponentProcess.start(name, log, command);
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline && guarded.isAlive()) {
      String text = Files.isRegularFile(log) ? Files.readString(log) : "";
      Matcher running = RUNNING.matcher(text);
      Matcher instance = INSTANCE.matcher(text);
      if (running.find() && instance.find()) {
        return new ControllerJvm(guarded, log, URI.create(running.group(1)), URI.create(running.group(2)),
            instance.group(1));
      }
      Thread.sleep(100); // waiting for a start, not measuring anything
    }
    String tail = guarded.tail(40);
    guarded.close();
    throw new IllegalStateException(name + " did not start within 90 s; log " + log + ":\n" + tail);
  }

  /** Its name in the Lease. */
  String instance() {
    return instance;
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  /** GETs {@code path} of its health and metrics server: status and body. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(operations.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs a GitHub ping to its webhook receiver: status and body. */
  HttpResponse<String> ping() throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(webhooks.resolve("github")).header("X-GitHub-Event", "ping")
        .header("X-GitHub-Delivery", "leader-election-it").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** SIGKILL: the JVM ends without a word, and keeps its Lease until it expires. */
  void kill() {
    java().destroyForcibly();
  }

  /** SIGTERM, as the kubelet stops a Pod; returns the exit code, or -1 if it ran over {@code timeout}. */
  int terminate(Duration timeout) {
    java().destroy();
    return guarded.waitForExit(timeout);
  }

  private ProcessHandle java() {
    return guarded.server("java").orElseThrow(() -> new IllegalStateException("no java below the guard; log " + log));
  }

  String tail() {
    return guarded.tail(40);
  }

  @Override
  public void close() {
    guarded.close();
  }
}
