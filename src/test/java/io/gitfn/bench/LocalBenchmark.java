package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.max;
import static io.gitfn.bench.ControllerBenchmark.percentile;

import io.gitfn.local.LocalMode;
import io.gitfn.local.LocalSettings;
import io.gitfn.testbed.Directories;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.RunningGitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * {@code gitfn up} with a real Node.js Function that requires one npm package ({@code is-number}), following a
 * branch of a bare repository that the benchmark pushes to with the {@code git} client:
 *
 * <ol>
 *   <li>{@value #COLD_STARTS} cold starts, each with a fresh cache: runtime server install, dependency install,
 *       process start, until the proxy answers with the Function's text;
 *   <li>{@value #PUSHES} pushes of a handler-only change with the cache warm, one client calling every 5 ms: push →
 *       the proxy answers with the new text;
 *   <li>{@value #PUSHES_UNDER_LOAD} more pushes and a revert while {@value #LOAD_CLIENTS} clients call as fast as
 *       they can: failed requests;
 *   <li>{@value #RATE} requests per second through the proxy and straight to the Function's process, in
 *       alternating blocks: the proxy's share of the latency.
 * </ol>
 */
final class LocalBenchmark implements Benchmark {

  private static final int COLD_STARTS = 3;
  private static final int PUSHES = 20;
  private static final int PUSHES_UNDER_LOAD = 10;
  private static final int LOAD_CLIENTS = 4;
  private static final int RATE = 50;
  private static final Duration RATE_BLOCK = Duration.ofSeconds(2);
  private static final int RATE_BLOCKS = 5;
  /** How often {@code gitfn up} looks at the branch; pushes are spread evenly over one such period. */
  private static final Duration INTERVAL = Duration.ofMillis(200);
  private static final Duration POLL = Duration.ofMillis(5);
  private static final Duration COLD_WAIT = Duration.ofMinutes(3);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String FOLDER = "functions";
  private static final String NAME = "hello";
  private static final String ID = "default/" + NAME;

  private static final Pattern FETCHED = Pattern.compile("↻ fetched .* in (\\d+) ms");
  private static final Pattern INSTALLED = Pattern.compile(ID + ": installed dependencies in (\\d+) ms");
  private static final Pattern STARTED = Pattern.compile(ID + ": started \\S+ on port \\d+ in (\\d+) ms");
  private static final Pattern PORT = Pattern.compile(ID + ": started \\S+ on port (\\d+) ");
  private static final Pattern SWITCHED = Pattern.compile(ID + ": switched in (\\d+) ms");

  private static final String OF_COLD = " (median of " + COLD_STARTS + ")";
  static final Row COLD = Row.millis("cold start (fresh cache): follow → first answer" + OF_COLD);
  static final Row COLD_SLOWEST = Row.millis("cold start: follow → first answer, slowest of " + COLD_STARTS);
  static final Row COLD_RUNTIME = Row.millis("  runtime server install (npm ci: express) and build folder" + OF_COLD);
  static final Row COLD_DEPENDENCIES = Row.millis("  dependency install (npm install is-number@7.0.0)" + OF_COLD);
  static final Row COLD_PROCESS = Row.millis("  process start → /healthz 200" + OF_COLD);
  static final Row WARM = Row.millis("warm start (cache of the last cold start): follow → first answer");
  static final Row PUSH_P50 = Row.millis("push → new version serving, p50 (" + PUSHES + " pushes, one client every "
      + POLL.toMillis() + " ms)", Target.atMost(3_000));
  static final Row PUSH_SLOWEST = Row.millis("push → new version serving, slowest of " + PUSHES);
  static final Row PUSH_GIT = Row.millis("  git push returns, p50");
  static final Row PUSH_FETCH = Row.millis("  fetch of the new commit, p50");
  static final Row PUSH_PROCESS = Row.millis("  process start → /healthz 200, p50");
  static final Row PUSH_OVER = Row.millis("new version serving → ready for the next push, p50");
  static final Row PUSH_OVER_SLOWEST = Row.millis("new version serving → ready for the next push, slowest");
  static final Row PUSH_ANSWERED = Row.count("requests answered 200 during those pushes");
  static final Row PUSH_FAILED = Row.count("failed requests during those pushes", Target.exactly(0));
  static final Row LOAD_P50 =
      Row.millis("under load: push → new version serving, p50 (" + PUSHES_UNDER_LOAD + " pushes)");
  static final Row LOAD_SLOWEST = Row.millis("under load: push → new version serving, slowest");
  static final Row LOAD_PROCESS = Row.millis("  process start → /healthz 200, p50");
  static final Row LOAD_REVERT = Row.millis("under load: revert pushed → earlier version serving");
  static final Row LOAD_OVER = Row.millis("under load: new version serving → ready for the next push, p50");
  static final Row LOAD_OVER_SLOWEST = Row.millis("under load: new version serving → ready for the next push, slowest");
  static final Row LOAD_ANSWERED = Row.count("under load: requests answered 200 (" + LOAD_CLIENTS
      + " clients without pause)");
  static final Row LOAD_FAILED = Row.count("under load: failed requests during " + PUSHES_UNDER_LOAD
      + " pushes and a revert", Target.exactly(0));
  static final Row INSTALLS = Row.count("dependency installs during the " + (PUSHES + PUSHES_UNDER_LOAD + 1)
      + " pushes", Target.exactly(0));
  static final Row PROXIED_P50 = Row.millis("through the proxy, p50 (" + RATE + " requests/s, "
      + RATE * RATE_BLOCK.toMillis() / 1000 * RATE_BLOCKS + " requests)");
  static final Row STRAIGHT_P50 = Row.millis("straight to the Function's process, p50");
  static final Row RATIO_P50 = Row.of("proxy ÷ straight, p50", "x", null);
  static final Row ADDED_P50 = Row.millis("added by the proxy, p50");
  static final Row PROXIED_MEAN = Row.millis("through the proxy: mean");
  static final Row PROXIED_P95 = Row.millis("through the proxy: p95");
  static final Row PROXIED_P99 = Row.millis("through the proxy: p99");
  static final Row STRAIGHT_MEAN = Row.millis("straight: mean");
  static final Row STRAIGHT_P95 = Row.millis("straight: p95");
  static final Row STRAIGHT_P99 = Row.millis("straight: p99");

  @Override
  public String name() {
    return "local";
  }

  @Override
  public String description() {
    return "gitfn up: " + COLD_STARTS + " cold starts, " + PUSHES + " pushes, " + PUSHES_UNDER_LOAD
        + " pushes and a revert under load, proxy overhead at " + RATE + " requests/s";
  }

  @Override
  public List<Row> rows() {
    return List.of(COLD, COLD_SLOWEST, COLD_RUNTIME, COLD_DEPENDENCIES, COLD_PROCESS, WARM, PUSH_P50, PUSH_SLOWEST,
        PUSH_GIT, PUSH_FETCH, PUSH_PROCESS, PUSH_OVER, PUSH_OVER_SLOWEST, PUSH_ANSWERED, PUSH_FAILED, LOAD_P50,
        LOAD_SLOWEST, LOAD_PROCESS, LOAD_REVERT, LOAD_OVER, LOAD_OVER_SLOWEST, LOAD_ANSWERED, LOAD_FAILED, INSTALLS,
        PROXIED_P50, STRAIGHT_P50, RATIO_P50, ADDED_P50, PROXIED_MEAN, PROXIED_P95, PROXIED_P99, STRAIGHT_MEAN,
        STRAIGHT_P95, STRAIGHT_P99);
  }

  @Override
  public List<Metric> run() throws Exception {
    List<Metric> metrics = new ArrayList<>();
    Path runs = Path.of(System.getProperty("gitfn.project.dir", "."), "target", "bench", "local-runs");
    Directories.deleteRecursively(runs);
    // Other work on the machine shows here before this benchmark adds its own load.
    System.out.println("load average before the run: " + Files.readString(Path.of("/proc/loadavg")).strip());
    try (RunningGitServers servers = RunningGitServers.start()) {
      BareRepository repository = servers.repositories().create("local");
      WorkingCopy copy = servers.newClient("local").clone(servers.http().url(repository.name()));
      copy.write(FOLDER + "/" + NAME + "/package.json",
          "{\"name\": \"hello\", \"dependencies\": {\"is-number\": \"7.0.0\"}}\n");
      writeVersion(copy, 1).commit("v1");
      copy.push();
      String source = "file://" + repository.directory().toAbsolutePath();

      Path warmCache = coldStarts(source, runs, metrics);
      ProgressLines progress = new ProgressLines("  up: ");
      try (LocalMode up = LocalMode.start(settings(warmCache), new PrintWriter(progress, true))) {
        Callers first = Callers.start(proxied(up), 1, POLL);
        first.expect(body(1));
        long following = System.nanoTime();
        up.follow(source, "main", FOLDER);
        metrics.add(WARM.value((first.await(WAIT) - following) / 1e6));
        first.stop();

        int mark = progress.count();
        pushes(up, copy, progress, metrics);
        underLoad(up, copy, progress, metrics);
        metrics.add(INSTALLS.value(progress.all(INSTALLED, mark).size()));
        proxyOverhead(up, progress, metrics);
      }
    }
    return metrics;
  }

  /**
   * Part 1: each start gets a fresh cache, so it installs gitfn's runtime server ({@code npm ci}) and the
   * Function's dependencies ({@code npm install}) before the process starts. npm's own download cache is the
   * machine's. Returns the last cache, warm, for the other parts.
   */
  private Path coldStarts(String source, Path runs, List<Metric> metrics) throws Exception {
    double[] total = new double[COLD_STARTS];
    double[] runtime = new double[COLD_STARTS];
    double[] dependencies = new double[COLD_STARTS];
    double[] start = new double[COLD_STARTS];
    Path cache = null;
    for (int i = 0; i < COLD_STARTS; i++) {
      cache = Files.createDirectories(runs.resolve("cache-" + (i + 1)));
      ProgressLines progress = new ProgressLines("  cold " + (i + 1) + ": ");
      try (LocalMode up = LocalMode.start(settings(cache), new PrintWriter(progress, true))) {
        // Until the Function is routed the proxy answers 404: those calls are not failures here.
        Callers probe = Callers.start(proxied(up), 1, POLL);
        probe.expect(body(1));
        long following = System.nanoTime();
        up.follow(source, "main", FOLDER);
        total[i] = (probe.await(COLD_WAIT) - following) / 1e6;
        probe.stop();
      }
      dependencies[i] = figure(progress, INSTALLED, 0);
      start[i] = figure(progress, STARTED, 0);
      // "switched in" is timed from the start of the rollout: runtime server, dependencies, build folder, process.
      runtime[i] = figure(progress, SWITCHED, 0) - dependencies[i] - start[i];
    }
    metrics.add(COLD.value(percentile(total, 50)));
    metrics.add(COLD_SLOWEST.value(max(total)));
    metrics.add(COLD_RUNTIME.value(percentile(runtime, 50)));
    metrics.add(COLD_DEPENDENCIES.value(percentile(dependencies, 50)));
    metrics.add(COLD_PROCESS.value(percentile(start, 50)));
    return cache;
  }

  /** Part 2: handler-only changes with the cache warm, under a light load that is also the clock. */
  private void pushes(LocalMode up, WorkingCopy copy, ProgressLines progress, List<Metric> metrics)
      throws Exception {
    Random phase = new Random(6);
    double[] served = new double[PUSHES];
    double[] pushed = new double[PUSHES];
    double[] over = new double[PUSHES];
    int mark = progress.count();
    Callers callers = Callers.start(proxied(up), 1, POLL);
    for (int i = 0; i < PUSHES; i++) {
      int version = 2 + i;
      writeVersion(copy, version).commit("v" + version);
      double[] times = pushAndAwait(up, copy, callers, body(version), phase);
      pushed[i] = times[0];
      served[i] = times[1];
      over[i] = times[2];
    }
    Callers.Result result = callers.stop();
    double[] starts = figures(progress, STARTED, mark);
    double[] fetches = figures(progress, FETCHED, mark);

    metrics.add(PUSH_P50.value(percentile(served, 50)));
    metrics.add(PUSH_SLOWEST.value(max(served)));
    metrics.add(PUSH_GIT.value(percentile(pushed, 50)));
    metrics.add(PUSH_FETCH.value(percentile(fetches, 50)));
    metrics.add(PUSH_PROCESS.value(percentile(starts, 50)));
    metrics.add(PUSH_OVER.value(percentile(over, 50)));
    metrics.add(PUSH_OVER_SLOWEST.value(max(over)));
    metrics.add(PUSH_ANSWERED.value(result.ok()));
    metrics.add(PUSH_FAILED.value(result.failures()));
    report("pushes", result);
  }

  /** Part 3: the same, and a revert, while clients call as fast as they can. */
  private void underLoad(LocalMode up, WorkingCopy copy, ProgressLines progress, List<Metric> metrics)
      throws Exception {
    Random phase = new Random(7);
    double[] served = new double[PUSHES_UNDER_LOAD];
    double[] over = new double[PUSHES_UNDER_LOAD + 1];
    int mark = progress.count();
    Callers callers = Callers.start(proxied(up), LOAD_CLIENTS, Duration.ZERO);
    int version = 2 + PUSHES;
    for (int i = 0; i < PUSHES_UNDER_LOAD; i++, version++) {
      writeVersion(copy, version).commit("v" + version);
      double[] times = pushAndAwait(up, copy, callers, body(version), phase);
      served[i] = times[1];
      over[i] = times[2];
    }
    copy.git("revert", "--no-edit", "HEAD");
    double[] times = pushAndAwait(up, copy, callers, body(version - 2), phase);
    double revert = times[1];
    over[PUSHES_UNDER_LOAD] = times[2];
    Callers.Result result = callers.stop();
    double[] starts = figures(progress, STARTED, mark);
    int switched = progress.all(SWITCHED, mark).size();
    if (switched != PUSHES_UNDER_LOAD + 1) {
      throw new IllegalStateException("expected " + (PUSHES_UNDER_LOAD + 1) + " rollouts, saw " + switched);
    }

    metrics.add(LOAD_P50.value(percentile(served, 50)));
    metrics.add(LOAD_SLOWEST.value(max(served)));
    metrics.add(LOAD_PROCESS.value(percentile(starts, 50)));
    metrics.add(LOAD_REVERT.value(revert));
    metrics.add(LOAD_OVER.value(percentile(over, 50)));
    metrics.add(LOAD_OVER_SLOWEST.value(max(over)));
    metrics.add(LOAD_ANSWERED.value(result.ok()));
    metrics.add(LOAD_FAILED.value(result.failures()));
    report("under load", result);
  }

  /**
   * Pushes the commit made and times it until a caller gets {@code expected}; then waits until the rollout is
   * over (the old process drained and stopped), so the next push does not overlap it. Returns, in milliseconds, the
   * push's own time, push → served, and served → the rollout over: gitfn up looks at the branch again only then.
   */
  private double[] pushAndAwait(LocalMode up, WorkingCopy copy, Callers callers, String expected, Random phase)
      throws Exception {
    // Pushes land anywhere in gitfn up's poll period, as a developer's do.
    Thread.sleep(phase.nextInt((int) INTERVAL.toMillis()));
    callers.expect(expected);
    long start = System.nanoTime();
    copy.push();
    long pushed = System.nanoTime();
    long served = callers.await(WAIT);
    up.pids(); // returns once the rollout in progress is over
    return new double[] {(pushed - start) / 1e6, (served - start) / 1e6, (System.nanoTime() - served) / 1e6};
  }

  /**
   * Part 4: the same Function version, through the proxy and at its own port, {@value #RATE} requests per second
   * each, in alternating blocks so that a change in the machine's load falls on both.
   */
  private void proxyOverhead(LocalMode up, ProgressLines progress, List<Metric> metrics) throws Exception {
    int port = Integer.parseInt(progress.last(PORT, 0).orElseThrow());
    URI viaProxy = proxied(up);
    URI direct = URI.create("http://127.0.0.1:" + port + "/");
    String throughProxy = get(viaProxy);
    if (!throughProxy.equals(get(direct))) {
      throw new IllegalStateException("port " + port + " is not the process the proxy serves");
    }
    FixedRate rate = new FixedRate(RATE);
    rate.call(viaProxy, RATE_BLOCK); // warm-up: connections, JIT
    rate.call(direct, RATE_BLOCK);
    List<double[]> proxied = new ArrayList<>();
    List<double[]> straight = new ArrayList<>();
    for (int i = 0; i < RATE_BLOCKS; i++) {
      proxied.add(rate.call(viaProxy, RATE_BLOCK));
      straight.add(rate.call(direct, RATE_BLOCK));
    }
    double[] p = concat(proxied);
    double[] d = concat(straight);
    metrics.add(PROXIED_P50.value(percentile(p, 50)));
    metrics.add(STRAIGHT_P50.value(percentile(d, 50)));
    metrics.add(RATIO_P50.value(percentile(p, 50) / percentile(d, 50)));
    metrics.add(ADDED_P50.value(percentile(p, 50) - percentile(d, 50)));
    metrics.add(PROXIED_MEAN.value(Arrays.stream(p).average().orElse(0)));
    metrics.add(PROXIED_P95.value(percentile(p, 95)));
    metrics.add(PROXIED_P99.value(percentile(p, 99)));
    metrics.add(STRAIGHT_MEAN.value(Arrays.stream(d).average().orElse(0)));
    metrics.add(STRAIGHT_P95.value(percentile(d, 95)));
    metrics.add(STRAIGHT_P99.value(percentile(d, 99)));
  }

  private static WorkingCopy writeVersion(WorkingCopy copy, int version) throws Exception {
    return copy.write(FOLDER + "/" + NAME + "/handler.js", "const isNumber = require('is-number');\n"
        + "module.exports = { main: () => 'v" + version + " ' + isNumber(" + version + ") };\n");
  }

  private static String body(int version) {
    return "v" + version + " true";
  }

  private static LocalSettings settings(Path cache) {
    return new LocalSettings(cache, "127.0.0.1", 0, INTERVAL);
  }

  private static URI proxied(LocalMode up) {
    return URI.create("http://127.0.0.1:" + up.port() + "/" + NAME);
  }

  private static String get(URI url) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  private static void report(String part, Callers.Result result) {
    System.out.printf("%s: %d requests answered 200, %d failed%s%n", part, result.ok(), result.failures(),
        result.failures() == 0 ? "" : "; first: " + result.firstFailures());
  }

  /** The figure in the last line after {@code from} that matches {@code pattern}. */
  private static double figure(ProgressLines progress, Pattern pattern, int from) {
    return Double.parseDouble(progress.last(pattern, from).orElseThrow(() -> new IllegalStateException(
        "no line matches " + pattern + " in:\n" + progress.tail(20))));
  }

  /** The figure of every line after {@code from} that matches {@code pattern}. */
  private static double[] figures(ProgressLines progress, Pattern pattern, int from) {
    return progress.all(pattern, from).stream().mapToDouble(Double::parseDouble).toArray();
  }

  private static double[] concat(List<double[]> blocks) {
    return blocks.stream().flatMapToDouble(Arrays::stream).toArray();
  }
}
