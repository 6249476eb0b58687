package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.percentile;

import io.gitfn.source.Backoff;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.Directories;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.RunningGitServers;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.trigger.SourceEvents;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.TrackedSource;
import io.gitfn.trigger.webhook.WebhookReceiver;
import io.gitfn.trigger.webhook.WebhookServer;
import io.gitfn.trigger.webhook.WebhookSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The source layer's costs: Git checks per poll cycle for many sources, CPU per check, webhook-to-revision
 * latency, and the heap a large fetch needs. Everything runs against the in-process test Git server on
 * loopback, so CPU figures include the server's share.
 */
final class SourcesBenchmark implements Benchmark {

  private static final int REPOSITORIES = 10;
  private static final int SOURCES_PER_REPOSITORY = 100;
  private static final Duration POLL = Duration.ofSeconds(1);
  private static final int POLL_CYCLES = 20;
  private static final int PUSHES = 200;
  private static final int LARGE_REPOSITORY_MB = 110;
  private static final String SECRET = "bench-secret";
  private static final String HEAP = "64m";

  /**
   * About one {@code ls-remote} per repository and cycle, however many sources: each mirror's schedule lands within
   * ±10 % of the interval, and the next check is scheduled only when one ends, so a cycle may see fewer.
   */
  static final Row LS_REMOTES = Row.of("ls-remotes per poll cycle (" + REPOSITORIES * SOURCES_PER_REPOSITORY
      + " sources on " + REPOSITORIES + " repositories, polled every " + POLL.toSeconds() + " s, for "
      + POLL_CYCLES + " cycles)", "n", Target.between(REPOSITORIES * 0.8, REPOSITORIES * 1.1));
  /** The sources of a repository share its mirror, so each repository is fetched once, whatever the sources. */
  static final Row FIRST_FETCHES = Row.count("fetches until every source reported its first revision",
      Target.exactly(REPOSITORIES));
  static final Row NO_CHANGE_FETCHES = Row.count("fetches during those " + POLL_CYCLES + " no-change cycles",
      Target.exactly(0));
  static final Row CPU_PER_CHECK = Row.millis("CPU per 1000 no-change source checks (client + in-process server)");
  static final Row WEBHOOK_P50 = Row.millis(
      "signed webhook delivery → the watcher reports the new revision, p50 (" + PUSHES + " pushes)");
  static final Row WEBHOOK_P99 = Row.millis(
      "signed webhook delivery → the watcher reports the new revision, p99 (" + PUSHES + " pushes)",
      Target.atMost(500));
  static final Row LARGE = Row.of("large repository on disk after fetch", "MB", Target.atLeast(100));
  static final Row PEAK_HEAP = Row.of("peak heap while fetching it, in a JVM started with -Xmx" + HEAP, "MB", null);
  /** The fetch streams the pack to disk: the heap it needs does not grow with the repository. */
  static final Row PEAK_HEAP_SHARE = Row.of("peak heap ÷ the repository on disk", "x", Target.atMost(0.5));

  @Override
  public String name() {
    return "sources";
  }

  @Override
  public String description() {
    return REPOSITORIES * SOURCES_PER_REPOSITORY + " sources on " + REPOSITORIES + " repositories, "
        + PUSHES + " webhook pushes, a " + LARGE_REPOSITORY_MB + " MB fetch";
  }

  @Override
  public List<Row> rows() {
    return List.of(LS_REMOTES, FIRST_FETCHES, NO_CHANGE_FETCHES, CPU_PER_CHECK, WEBHOOK_P50, WEBHOOK_P99, LARGE,
        PEAK_HEAP, PEAK_HEAP_SHARE);
  }

  @Override
  public List<Metric> run() throws Exception {
    List<Metric> metrics = new ArrayList<>();
    try (RunningGitServers servers = RunningGitServers.start()) {
      polling(servers, metrics);
      webhooks(servers, metrics);
      largeFetch(servers, metrics);
    }
    return metrics;
  }

  private void polling(RunningGitServers servers, List<Metric> metrics) throws Exception {
    Path cache = Files.createTempDirectory("gitfn-bench-mirrors");
    Map<SourceId, Revision> seen = new ConcurrentHashMap<>();
    List<Mirror> mirrorList = new ArrayList<>();
    try (MirrorCache mirrors = new MirrorCache(SourceSettings.defaults(cache));
        SourceWatcher watcher = new SourceWatcher(mirrors, Clock.systemUTC(),
            new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)), 2)) {
      for (int r = 0; r < REPOSITORIES; r++) {
        BareRepository repository = servers.repositories().create("poll-" + r);
        WorkingCopy copy = servers.newClient("poll-" + r).clone(servers.http().url(repository.name()));
        copy.write("README.md", "repository " + r + "\n").commit("first");
        copy.push();
        RepositoryUrl url = RepositoryUrl.parse(servers.http().url(repository.name()));
        GitCredentials credentials = credentials(servers);
        mirrorList.add(mirrors.mirror(url, credentials));
        for (int s = 0; s < SOURCES_PER_REPOSITORY; s++) {
          watcher.track(new TrackedSource(new SourceId("FunctionRepository", "repo-" + r, "source-" + s), url,
              credentials, new RefSelector.Branch("main"), POLL, Optional.empty()), recordInto(seen));
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (seen.size() < REPOSITORIES * SOURCES_PER_REPOSITORY && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      if (seen.size() < REPOSITORIES * SOURCES_PER_REPOSITORY) {
        throw new IllegalStateException("only " + seen.size() + " sources reported a revision within 60 s");
      }
      int fetchesBefore = fetches(mirrorList);
      int lsRemotesBefore = mirrorList.stream().mapToInt(Mirror::lsRemoteCount).sum();
      long cpuBefore = processCpuNanos();
      Thread.sleep(POLL.multipliedBy(POLL_CYCLES).toMillis());
      int lsRemotes = mirrorList.stream().mapToInt(Mirror::lsRemoteCount).sum() - lsRemotesBefore;
      long cpu = processCpuNanos() - cpuBefore;
      int fetchesDuring = fetches(mirrorList) - fetchesBefore;
      double sourceChecks = (double) lsRemotes * SOURCES_PER_REPOSITORY;
      metrics.add(LS_REMOTES.value((double) lsRemotes / POLL_CYCLES));
      metrics.add(FIRST_FETCHES.value(fetchesBefore));
      metrics.add(NO_CHANGE_FETCHES.value(fetchesDuring));
      metrics.add(CPU_PER_CHECK.value(cpu / 1e6 / (sourceChecks / 1000)));
    } finally {
      Directories.deleteRecursively(cache);
    }
  }

  private void webhooks(RunningGitServers servers, List<Metric> metrics) throws Exception {
    Path cache = Files.createTempDirectory("gitfn-bench-mirrors");
    Map<String, Long> arrived = new ConcurrentHashMap<>();
    SourceEvents events = new SourceEvents() {
      @Override
      public void revision(SourceId source, Revision revision, String cause) {
        arrived.putIfAbsent(revision.sha(), System.nanoTime());
      }

      @Override
      public void failed(SourceId source, SourceException error, Duration retryIn) {}
    };
    BareRepository repository = servers.repositories().create("webhooks");
    String cloneUrl = servers.http().url(repository.name());
    WorkingCopy copy = servers.newClient("webhooks").clone(cloneUrl);
    copy.write("handler.js", "0").commit("first");
    copy.push();
    HttpClient http = HttpClient.newHttpClient();
    double[] latencies = new double[PUSHES];
    try (MirrorCache mirrors = new MirrorCache(SourceSettings.defaults(cache));
        SourceWatcher watcher = new SourceWatcher(mirrors, Clock.systemUTC(),
            new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1)), 2);
        WebhookServer receiver = WebhookServer.start("127.0.0.1", 0, new WebhookReceiver(
            watcher.webhookTargets(), WebhookSettings.defaults(), Clock.systemUTC()))) {
      watcher.track(new TrackedSource(new SourceId("FunctionRepository", "bench", "webhooks"),
          RepositoryUrl.parse(cloneUrl), credentials(servers), new RefSelector.Branch("main"), Duration.ofHours(1),
          Optional.of(SECRET)), events);
      for (int i = 0; i < PUSHES; i++) {
        String sha = copy.write("handler.js", Integer.toString(i + 1)).commit("push " + i);
        copy.push();
        byte[] body = ("{\"repository\":\"" + cloneUrl + "\",\"ref\":\"refs/heads/main\",\"after\":\"" + sha + "\"}")
            .getBytes(StandardCharsets.UTF_8);
        long sent = System.nanoTime();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(receiver.baseUri().resolve("generic"))
            .header("Content-Type", "application/json")
            .header("X-Delivery-Id", "bench-" + i)
            .header("X-Signature", "sha256=" + hmac(body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
          throw new IllegalStateException("delivery " + i + " answered " + response.statusCode() + ": " + response.body());
        }
        long deadline = sent + TimeUnit.SECONDS.toNanos(10);
        while (!arrived.containsKey(sha) && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        Long at = arrived.get(sha);
        if (at == null) {
          throw new IllegalStateException("push " + i + " was not seen within 10 s of its webhook");
        }
        latencies[i] = (at - sent) / 1e6;
      }
    } finally {
      Directories.deleteRecursively(cache);
    }
    java.util.Arrays.sort(latencies);
    metrics.add(WEBHOOK_P50.value(percentile(latencies, 50)));
    metrics.add(WEBHOOK_P99.value(percentile(latencies, 99)));
  }

  private void largeFetch(RunningGitServers servers, List<Metric> metrics) throws Exception {
    BareRepository repository = servers.repositories().create("large");
    GitClient git = servers.newClient("large");
    WorkingCopy copy = git.clone(servers.http().url(repository.name()));
    SecureRandom random = new SecureRandom();
    byte[] megabyte = new byte[1 << 20];
    for (int i = 0; i < LARGE_REPOSITORY_MB; i++) {
      random.nextBytes(megabyte); // incompressible, so the pack is as large as the files
      Path file = copy.directory().resolve("blobs/blob-" + i + ".bin");
      Files.createDirectories(file.getParent());
      Files.write(file, megabyte);
    }
    copy.commit("large");
    copy.push();
    Process probe = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + HEAP,
            "-cp", System.getProperty("java.class.path"), FetchProbe.class.getName(),
            servers.http().url(repository.name()), servers.http().credentials().username(),
            servers.http().credentials().password(), "main", Long.toString(2L << 30))
        .redirectErrorStream(true).start();
    long peak = -1;
    long size = -1;
    try (OutputStream ignored = probe.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("peak-heap-bytes ")) {
          peak = Long.parseLong(line.substring(16).trim());
        } else if (line.startsWith("repository-bytes ")) {
          size = Long.parseLong(line.substring(17).trim());
        } else {
          System.out.println("fetch probe: " + line);
        }
      }
    }
    if (probe.waitFor() != 0 || peak <= 0 || size <= 0) {
      throw new IllegalStateException("the fetch probe failed with -Xmx" + HEAP + "; see its output above");
    }
    metrics.add(LARGE.value(size / 1e6));
    metrics.add(PEAK_HEAP.value(peak / 1e6));
    metrics.add(PEAK_HEAP_SHARE.value((double) peak / size));
  }

  private static int fetches(List<Mirror> mirrors) {
    return mirrors.stream().mapToInt(Mirror::fetchCount).sum();
  }

  private static SourceEvents recordInto(Map<SourceId, Revision> seen) {
    return new SourceEvents() {
      @Override
      public void revision(SourceId source, Revision revision, String cause) {
        seen.put(source, revision);
      }

      @Override
      public void failed(SourceId source, SourceException error, Duration retryIn) {}
    };
  }

  private static GitCredentials credentials(RunningGitServers servers) {
    return new GitCredentials.Basic(servers.http().credentials().username(), servers.http().credentials().password());
  }

  private static String hmac(byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(body));
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
