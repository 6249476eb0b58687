package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.FluxSourceController;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.RunningGitServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Many teams' repositories on one controller, and Flux's source-controller tracking the same repositories on the same
 * API server, as GitRepositories: {@code repositories} infra repositories of {@value #FUNCTIONS_PER_REPOSITORY}
 * Functions each, polled every minute, added in three steps. At each step, once everything is Ready, both are left
 * idle for a few poll intervals and measured: resident memory, CPU, Git requests and API writes. At the largest
 * step, pushes are announced (gitfn: a signed webhook; Flux: its {@code requestedAt} annotation), then gitfn is
 * restarted on its mirrors, and then split into two shards.
 *
 * <p>Sizes: {@code -Dbench.scale.repositories} (default 1000, so 10,000 Functions) and
 * {@code -Dbench.scale.idle} (seconds of each idle window, default 180).
 */
final class ScaleBenchmark implements Benchmark {

  static final int FUNCTIONS_PER_REPOSITORY = 10;
  private static final int REPOSITORIES_PER_NAMESPACE = 10;
  private static final int PUSHES = 20;
  /**
   * The heap docs/operations.md#sizing gives for {@code functions}: 1.7× the live set this benchmark measured (about
   * 29 MiB and 16 KiB per Function), and never less than the image's 96 MiB.
   */
  static int heapMib(int functions) {
    return Math.max(96, 49 + functions * 27 / 1024);
  }

  /** The image's flags (ControllerProcess.JVM_FLAGS) with the heap sized for {@code functions}. */
  static List<String> jvmFlags(int functions) {
    return ControllerProcess.JVM_FLAGS.stream()
        .map(f -> f.startsWith("-Xmx") ? "-Xmx" + heapMib(functions) + "m" : f).toList();
  }
  /**
   * Each namespace's first Function runs an install Job, which the test bed plays in a fraction of a second; with the
   * default 5 slots, a thousand namespaces' first installs would queue for long.
   */
  private static final String BUILD_CONCURRENCY = "50";
  private static final ResourceDefinitionContext GIT_REPOSITORY = new ResourceDefinitionContext.Builder()
      .withGroup("source.toolkit.fluxcd.io").withVersion("v1").withKind("GitRepository").withPlural("gitrepositories")
      .withNamespaced(true).build();
  private static final Duration SETTLE = Duration.ofSeconds(30);
  // 5,000 new Functions take about 40 minutes on 2 cores (the API server creating their Jobs, Pods and Deployments).
  private static final Duration STEP_TIMEOUT = Duration.ofMinutes(75);
  private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern METRIC = Pattern.compile("^(\\w+)\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);

  private final int repositories = Integer.getInteger("bench.scale.repositories", 1000);
  /** Where this run's logs, audit log and heap histograms go. */
  private Path run;
  private final Duration idle = Duration.ofSeconds(Integer.getInteger("bench.scale.idle", 180));
  private final int[] steps = {repositories / 10, repositories / 2, repositories};
  private final int largest = repositories * FUNCTIONS_PER_REPOSITORY;
  private final List<Row> rows = new ArrayList<>();
  private final Row[][] stepRows = new Row[3][];
  private final Row growthHeap;
  private final Row growthRss;
  private final Row changeP50;
  private final Row changeP99;
  private final Row revisionP50;
  private final Row revisionMax;
  private final Row fluxRevisionP50;
  private final Row fluxRevisionMax;
  private final Row restart;
  private final Row restartWrites;
  private final Row restartFetches;
  private final Row restartBuilds;
  private final Row[] shardRows;

  ScaleBenchmark() {
    for (int s = 0; s < steps.length; s++) {
      int fns = steps[s] * FUNCTIONS_PER_REPOSITORY;
      String at = " (" + fns + " Functions, " + steps[s] + " repositories)";
      boolean first = s == 0;
      boolean last = s == steps.length - 1;
      stepRows[s] = new Row[] {
          Row.millis("gitfn: repositories created → all Functions Ready" + at),
          Row.of("gitfn VmRSS" + at, "MiB",
              first ? Target.atMost(160) : last ? Target.atMost(512) : null),
          Row.of("  live heap after a full GC", "MiB", null),
          Row.of("  idle CPU, share of one core", "%", last ? Target.atMost(25) : null),
          Row.of("  Git requests per minute, idle", "n", null),
          Row.of("  Git answers' bytes per minute, idle", "KiB", null),
          Row.of("  API writes per minute, idle", "n", Target.exactly(0)),
          Row.millis("Flux source-controller: GitRepositories created → all fetched" + at),
          Row.of("Flux source-controller VmRSS" + at, "MiB", null),
          Row.of("  idle CPU, share of one core", "%", null),
          Row.of("  Git requests per minute, idle", "n", null),
          Row.of("  Git answers' bytes per minute, idle", "KiB", null),
          Row.of("  API writes per minute, idle", "n", null),
      };
      rows.addAll(List.of(stepRows[s]));
    }
    String span = " from " + steps[0] * FUNCTIONS_PER_REPOSITORY + " to " + largest + " Functions";
    growthHeap = Row.of("gitfn live heap per Function," + span, "KiB", null);
    growthRss = Row.of("gitfn VmRSS per Function," + span, "KiB", null);
    String pushes = " (" + PUSHES + " pushes, " + largest + " Functions)";
    changeP50 = Row.millis("gitfn: signed webhook → the Function's Deployment on the new image, p50" + pushes);
    changeP99 = Row.millis("gitfn: signed webhook → the Function's Deployment on the new image, p99",
        Target.atMost(2_000));
    revisionP50 = Row.millis("gitfn: signed webhook → new revision in the FunctionRepository's status, p50");
    revisionMax = Row.millis("gitfn: signed webhook → new revision in the FunctionRepository's status, max");
    fluxRevisionP50 = Row.millis("Flux: requestedAt annotation → new revision in the GitRepository's status, p50");
    fluxRevisionMax = Row.millis("Flux: requestedAt annotation → new revision in the GitRepository's status, max");
    restart = Row.millis("gitfn restarted on its mirrors → all " + largest + " Functions and " + repositories
        + " repositories reconciled");
    restartWrites = Row.count("  API writes from the restart until " + SETTLE.toSeconds() + " s after",
        Target.exactly(0));
    restartFetches = Row.count("  Git fetches after the restart", Target.exactly(0));
    restartBuilds = Row.count("  build Jobs created after the restart", Target.exactly(0));
    shardRows = new Row[] {
        Row.millis("two shards started → each has reconciled its half"),
        Row.count("  shard a: Functions labelled for it"),
        Row.count("  shard b: Functions labelled for it"),
        Row.of("  shard a: VmRSS", "MiB", null),
        Row.of("  shard b: VmRSS", "MiB", null),
        Row.of("  shard a: live heap after a full GC", "MiB", null),
        Row.of("  shard b: live heap after a full GC", "MiB", null),
        Row.of("  shard a: Git checks per minute, idle", "n", null),
        Row.of("  shard b: Git checks per minute, idle", "n", null),
        Row.of("  live heap, larger shard ÷ smaller shard", "x", Target.atMost(1.25)),
        Row.of("  live heap, larger shard ÷ the one controller before the split", "x", Target.atMost(0.65)),
        Row.count("  API writes by both shards, from their start until the end", Target.exactly(0)),
    };
    rows.addAll(List.of(growthHeap, growthRss, changeP50, changeP99, revisionP50, revisionMax, fluxRevisionP50,
        fluxRevisionMax, restart, restartWrites, restartFetches, restartBuilds));
    rows.addAll(List.of(shardRows));
  }

  @Override
  public String name() {
    return "scale";
  }

  @Override
  public String description() {
    return largest + " Functions from " + repositories + " repositories on one controller, side by side with Flux's"
        + " source-controller; a restart; two shards";
  }

  @Override
  public List<Row> rows() {
    return rows;
  }

  @Override
  public List<Metric> run() throws Exception {
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/scale-runs"));
    run = Files.createTempDirectory(runs, "run-");
    System.out.println("scale: " + repositories + " repositories, logs in " + run);
    Path jar = TestBedBinaries.projectDir().resolve("target/gitfn.jar");
    Path flux = FluxSourceController.locateOrBuild();
    AuditedRequests writes = AuditedRequests.writesIn(run.resolve("audit"));
    List<Metric> metrics = new ArrayList<>();
    try (RunningGitServers servers = RunningGitServers.start();
        KubeTestBed bed = KubeTestBed.start(run.resolve("bed"), writes.apiServerFlags()).withCluster();
        KubernetesClient client = bed.newClient()) {
      bed.installCrds();
      List<TeamRepository> teams = seed(servers);
      try (FluxSourceController fluxController = FluxSourceController.start(flux, bed, run.resolve("flux"),
              Duration.ofMinutes(2));
          Observed<Function> functions = Observed.everywhere(client, Function.class);
          Observed<FunctionRepository> functionRepositories = Observed.everywhere(client, FunctionRepository.class);
          Observed<Deployment> deployments = Observed.everywhere(client, Deployment.class);
          Observed<GenericKubernetesResource> gitRepositories = Observed.everywhere(client, GIT_REPOSITORY)) {
        Path mirrors = Files.createDirectories(run.resolve("mirrors"));
        ControllerProcess gitfn = null;
        double singleLiveHeap;
        try {
          double[] heap = new double[steps.length];
          double[] rss = new double[steps.length];
          int created = 0;
          for (int s = 0; s < steps.length; s++) {
            List<TeamRepository> added = teams.subList(created, steps[s]);
            created = steps[s];
            // A controller sized for the step, as an operator sizes one for the Functions it will run: restarted on
            // its mirrors, it re-reads what the earlier steps created before the new repositories arrive.
            if (gitfn != null) {
              gitfn.close();
            }
            int total = created * FUNCTIONS_PER_REPOSITORY;
            gitfn = startGitfn(jar, bed, mirrors, run.resolve("controller-" + total + ".log"), List.of(), total);
            StepFigures figures = step(client, servers, writes, gitfn, fluxController, added, created, functions,
                functionRepositories, gitRepositories, stepRows[s], metrics);
            heap[s] = figures.liveHeapMib();
            rss[s] = figures.rssMib();
          }
          singleLiveHeap = heap[2];
          double grown = largest - steps[0] * FUNCTIONS_PER_REPOSITORY;
          metrics.add(growthHeap.value((heap[2] - heap[0]) * 1024 / grown));
          metrics.add(growthRss.value((rss[2] - rss[0]) * 1024 / grown));
          pushes(client, gitfn, teams, functions, functionRepositories, deployments, gitRepositories, metrics);
        } finally {
          if (gitfn != null) {
            gitfn.close();
          }
        }
        gitfn = restart(jar, bed, client, writes, mirrors, metrics);
        gitfn.close();
        shards(jar, bed, writes, singleLiveHeap, functions, metrics);
      }
    }
    return metrics;
  }

  /** {@code repositories} team repositories on the Git server, and one namespace per ten of them. */
  private List<TeamRepository> seed(RunningGitServers servers) throws IOException {
    long start = System.nanoTime();
    List<TeamRepository> teams = new ArrayList<>();
    for (int i = 0; i < repositories; i++) {
      teams.add(TeamRepository.create(servers, String.format("team-%04d", i), FUNCTIONS_PER_REPOSITORY));
    }
    System.out.printf("seeded %d repositories in %.1f s%n", repositories, (System.nanoTime() - start) / 1e9);
    return teams;
  }

  private ControllerProcess startGitfn(Path jar, KubeTestBed bed, Path mirrors, Path log, List<String> arguments,
      int functions) throws IOException, InterruptedException {
    // The layered builder against the test bed's registry; published figures before 2026-11-29 were measured with
    // buildah's build Jobs, which kwok completed at once (docs/benchmarks.md#scale).
    List<String> all = new ArrayList<>(bed.layeredBuilds().flags());
    all.addAll(List.of("--build-concurrency", BUILD_CONCURRENCY));
    all.addAll(arguments);
    // Each collection and its pause, beside the controller's log: whether a slow step was the heap's doing.
    List<String> flags = new ArrayList<>(jvmFlags(functions));
    flags.add("-Xlog:gc:file=" + log.resolveSibling(log.getFileName() + ".gc") + ":uptime");
    ControllerProcess gitfn = ControllerProcess.start(jar, bed.kubeconfig(), mirrors, log, Duration.ofMinutes(2),
        flags, all);
    System.out.println("gitfn controller pid " + gitfn.pid() + " for " + functions + " Functions, -Xmx"
        + heapMib(functions) + "m " + arguments + ", metrics at " + gitfn.operations());
    return gitfn;
  }

  private record StepFigures(double rssMib, double liveHeapMib) {}

  /**
   * Adds {@code added} repositories to both controllers, waits until everything is Ready, lets both idle, and
   * measures them.
   */
  private StepFigures step(KubernetesClient client, RunningGitServers servers, AuditedRequests writes,
      ControllerProcess gitfn, FluxSourceController flux, List<TeamRepository> added, int total,
      Observed<Function> functions, Observed<FunctionRepository> functionRepositories,
      Observed<GenericKubernetesResource> gitRepositories, Row[] row, List<Metric> metrics) throws Exception {
    int expected = total * FUNCTIONS_PER_REPOSITORY;
    int first = total - added.size();
    for (int i = 0; i < added.size(); i++) {
      prepareNamespace(client, servers, namespaceOf(first + i));
    }
    long start = System.nanoTime();
    for (int i = 0; i < added.size(); i++) {
      TeamRepository team = added.get(i);
      client.resource(functionRepository(client, team, namespaceOf(first + i), shardOf(first + i))).create();
    }
    long fluxStart = System.nanoTime();
    for (int i = 0; i < added.size(); i++) {
      client.genericKubernetesResources(GIT_REPOSITORY).resource(gitRepository(added.get(i),
          namespaceOf(first + i))).create();
    }
    CompletableFuture<Long> fluxFetched = CompletableFuture.supplyAsync(() -> awaitState(
        () -> gitRepositories.count(r -> !fluxRevision(r).isEmpty()) >= total, STEP_TIMEOUT,
        total + " GitRepositories to have an artifact"));
    awaitState(() -> functions.count(ControllerBenchmark::ready) >= expected, STEP_TIMEOUT,
        expected + " Functions to be Ready");
    long allReady = System.nanoTime();
    awaitState(() -> functionRepositories.count(ScaleBenchmark::repositoryReady) >= total, STEP_TIMEOUT,
        total + " FunctionRepositories to be Ready");
    long fluxDone = fluxFetched.get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    metrics.add(row[0].value((allReady - start) / 1e6));
    System.out.printf("%d Functions Ready after %.1f s; Flux fetched %d repositories after %.1f s%n", expected,
        (allReady - start) / 1e9, total, (fluxDone - fluxStart) / 1e9);

    Thread.sleep(SETTLE.toMillis()); // lets the last status writes and Events of the step drain before the window
    Idle gitfnIdle = Idle.start(gitfn.pid(), writes, "gitfn");
    Idle fluxIdle = Idle.start(flux.pid(), writes, "source-controller");
    Map<String, Long> requestsBefore = servers.http().requests();
    Thread.sleep(idle.toMillis()); // the idle window itself: what both do with nothing to do
    Map<String, Long> requests = WriteCounter.since(requestsBefore, servers.http().requests());
    IdleFigures gitfnFigures = gitfnIdle.end();
    IdleFigures fluxFigures = fluxIdle.end();
    double minutes = idle.toMillis() / 60_000.0;
    System.out.println("Git requests in the idle window: " + requests + "\ngitfn writes: " + gitfnFigures.writes()
        + "\nFlux writes: " + fluxFigures.writes());
    double rss = ProcessCpu.rssMib(gitfn.pid());
    double liveHeap = liveHeapMib(gitfn);
    String histogram = gitfn.jcmd("GC.class_histogram");
    Files.writeString(run.resolve("live-heap-histogram-" + expected + ".txt"), histogram);
    System.out.println("gitfn's live heap with " + expected + " Functions, largest classes:\n"
        + histogram.lines().limit(25).collect(Collectors.joining("\n")));
    metrics.add(row[1].value(rss));
    metrics.add(row[2].value(liveHeap));
    metrics.add(row[3].value(gitfnFigures.cpuShare() * 100));
    metrics.add(row[4].value(requestsBy(requests, GITFN_GIT) / minutes));
    metrics.add(row[5].value(requests.getOrDefault(GITFN_GIT + BYTES, 0L) / 1024.0 / minutes));
    metrics.add(row[6].value(AuditedRequests.total(gitfnFigures.writes()) / minutes));
    metrics.add(row[7].value((fluxDone - fluxStart) / 1e6));
    metrics.add(row[8].value(ProcessCpu.rssMib(flux.pid())));
    metrics.add(row[9].value(fluxFigures.cpuShare() * 100));
    metrics.add(row[10].value(requestsBy(requests, FLUX_GIT) / minutes));
    metrics.add(row[11].value(requests.getOrDefault(FLUX_GIT + BYTES, 0L) / 1024.0 / minutes));
    metrics.add(row[12].value(AuditedRequests.total(fluxFigures.writes()) / minutes));
    return new StepFigures(rss, liveHeap);
  }

  private record IdleFigures(double cpuShare, Map<String, Long> writes) {}

  /** A process's CPU and API writes from the start of an idle window. */
  private record Idle(long pid, AuditedRequests writes, String client, long startNanos, Duration cpu, long mark) {
    static Idle start(long pid, AuditedRequests writes, String client) throws IOException {
      return new Idle(pid, writes, client, System.nanoTime(), ProcessCpu.of(pid), writes.mark());
    }

    IdleFigures end() throws IOException {
      double elapsed = System.nanoTime() - startNanos;
      double used = ProcessCpu.of(pid).minus(cpu).toNanos();
      return new IdleFigures(used / elapsed, writes.since(mark, client));
    }
  }

  /**
   * {@value #PUSHES} changes, each to a Function of another repository, announced at once to both: to gitfn by a
   * signed webhook, to Flux by its {@code requestedAt} annotation. Each is timed from its own announcement.
   */
  private void pushes(KubernetesClient client, ControllerProcess gitfn, List<TeamRepository> teams,
      Observed<Function> functions, Observed<FunctionRepository> functionRepositories,
      Observed<Deployment> deployments, Observed<GenericKubernetesResource> gitRepositories, List<Metric> metrics)
      throws Exception {
    GenericWebhook webhook = new GenericWebhook(gitfn.webhooks(), WEBHOOK_TOKEN);
    double[] toDeployment = new double[PUSHES];
    double[] toRevision = new double[PUSHES];
    double[] fluxToRevision = new double[PUSHES];
    for (int round = 0; round < PUSHES; round++) {
      int index = (int) ((long) round * teams.size() / PUSHES);
      TeamRepository team = teams.get(index);
      String namespace = namespaceOf(index);
      String function = team.function(round % FUNCTIONS_PER_REPOSITORY);
      String key = namespace + "/" + function;
      String earlier = Objects.requireNonNull(functions.get(key).getStatus().getImage(), key + " has no image");
      String sha = team.change(function, "v" + (round + 2));
      CompletableFuture<Long> deployed = deployments.when(key, d -> !earlier.equals(ControllerBenchmark.image(d)));
      CompletableFuture<Long> recorded = functionRepositories.when(namespace + "/" + team.name(),
          r -> r.getStatus() != null && String.valueOf(r.getStatus().getLastFetchedRevision()).contains(sha));
      CompletableFuture<Long> fluxRecorded = gitRepositories.when(namespace + "/" + team.name(),
          r -> fluxRevision(r).contains(sha));
      long sent = System.nanoTime();
      webhook.push(team.url(), sha);
      long fluxSent = System.nanoTime();
      client.genericKubernetesResources(GIT_REPOSITORY).inNamespace(namespace).withName(team.name()).edit(r -> {
        r.getMetadata().getAnnotations().put("reconcile.fluxcd.io/requestedAt", Instant.now().toString());
        return r;
      });
      toDeployment[round] = (await(deployed, "the change of " + key) - sent) / 1e6;
      toRevision[round] = (await(recorded, "gitfn to record " + sha) - sent) / 1e6;
      fluxToRevision[round] = (await(fluxRecorded, "Flux to record " + sha) - fluxSent) / 1e6;
      System.out.printf("push %d (%s): gitfn revision %.0f ms, Deployment %.0f ms; Flux revision %.0f ms%n",
          round + 1, key, toRevision[round], toDeployment[round], fluxToRevision[round]);
      awaitState(() -> ControllerBenchmark.ready(functions.get(key)), CHANGE_TIMEOUT, key + " Ready on its change");
    }
    metrics.add(changeP50.value(ControllerBenchmark.percentile(toDeployment, 50)));
    metrics.add(changeP99.value(ControllerBenchmark.percentile(toDeployment, 99)));
    metrics.add(revisionP50.value(ControllerBenchmark.percentile(toRevision, 50)));
    metrics.add(revisionMax.value(ControllerBenchmark.max(toRevision)));
    metrics.add(fluxRevisionP50.value(ControllerBenchmark.percentile(fluxToRevision, 50)));
    metrics.add(fluxRevisionMax.value(ControllerBenchmark.max(fluxToRevision)));
  }

  /**
   * A new controller on the same mirrors: from its start until its metrics have counted a pass of every Function and
   * FunctionRepository; then {@link #SETTLE} more, and every write it made in all that time.
   */
  private ControllerProcess restart(Path jar, KubeTestBed bed, KubernetesClient client, AuditedRequests writes,
      Path mirrors, List<Metric> metrics) throws Exception {
    long mark = writes.mark();
    int jobsBefore = client.batch().v1().jobs().inAnyNamespace().list().getItems().size();
    long start = System.nanoTime();
    ControllerProcess gitfn = startGitfn(jar, bed, mirrors, run.resolve("controller-restarted.log"), List.of(),
        largest);
    awaitState(() -> reconciled(gitfn, "Function") >= largest && reconciled(gitfn, "FunctionRepository")
        >= repositories, STEP_TIMEOUT, "the restarted controller to reconcile everything");
    metrics.add(restart.value((System.nanoTime() - start) / 1e6));
    Thread.sleep(SETTLE.toMillis()); // trailing writes would show up here
    Map<String, Long> written = writes.since(mark, "gitfn");
    System.out.println("writes after the restart: " + written);
    metrics.add(restartWrites.value(AuditedRequests.total(written)));
    metrics.add(restartFetches.value(metricSum(gitfn, "gitfn_git_fetches_total")));
    metrics.add(restartBuilds.value(client.batch().v1().jobs().inAnyNamespace().list().getItems().size()
        - jobsBefore));
    return gitfn;
  }

  /** Two controllers, one per shard label value, each on a cache of its own. */
  private void shards(Path jar, KubeTestBed bed, AuditedRequests writes, double singleLiveHeap,
      Observed<Function> functions, List<Metric> metrics) throws Exception {
    long mark = writes.mark();
    long start = System.nanoTime();
    try (ControllerProcess a = startGitfn(jar, bed, Files.createDirectories(run.resolve("mirrors-a")),
            run.resolve("controller-shard-a.log"), List.of("--shard-selector", "gitfn.io/shard=a"), largest / 2);
        ControllerProcess b = startGitfn(jar, bed, Files.createDirectories(run.resolve("mirrors-b")),
            run.resolve("controller-shard-b.log"), List.of("--shard-selector", "gitfn.io/shard=b"), largest / 2)) {
      int half = largest / 2;
      awaitState(() -> reconciled(a, "Function") >= half && reconciled(b, "Function") >= half
          && reconciled(a, "FunctionRepository") >= repositories / 2
          && reconciled(b, "FunctionRepository") >= repositories / 2, STEP_TIMEOUT,
          "both shards to reconcile their half");
      metrics.add(shardRows[0].value((System.nanoTime() - start) / 1e6));
      metrics.add(shardRows[1].value(functions.count(f -> "a".equals(shardLabel(f)))));
      metrics.add(shardRows[2].value(functions.count(f -> "b".equals(shardLabel(f)))));
      Thread.sleep(SETTLE.toMillis()); // the shards' first checks of their repositories end
      double checksA = metricSum(a, "gitfn_git_checks_total");
      double checksB = metricSum(b, "gitfn_git_checks_total");
      Thread.sleep(idle.toMillis()); // an idle window, for the checks per minute
      double minutes = idle.toMillis() / 60_000.0;
      double perMinuteA = (metricSum(a, "gitfn_git_checks_total") - checksA) / minutes;
      double perMinuteB = (metricSum(b, "gitfn_git_checks_total") - checksB) / minutes;
      Map<String, Long> written = writes.since(mark, "gitfn");
      System.out.println("writes by the shards: " + written);
      double rssA = ProcessCpu.rssMib(a.pid());
      double rssB = ProcessCpu.rssMib(b.pid());
      double heapA = liveHeapMib(a);
      double heapB = liveHeapMib(b);
      metrics.add(shardRows[3].value(rssA));
      metrics.add(shardRows[4].value(rssB));
      metrics.add(shardRows[5].value(heapA));
      metrics.add(shardRows[6].value(heapB));
      metrics.add(shardRows[7].value(perMinuteA));
      metrics.add(shardRows[8].value(perMinuteB));
      metrics.add(shardRows[9].value(Math.max(heapA, heapB) / Math.min(heapA, heapB)));
      metrics.add(shardRows[10].value(Math.max(heapA, heapB) / singleLiveHeap));
      metrics.add(shardRows[11].value(AuditedRequests.total(written)));
    }
  }

  private static final String WEBHOOK_TOKEN = "bench-webhook-token";

  private static String namespaceOf(int repository) {
    return String.format("team-%03d", repository / REPOSITORIES_PER_NAMESPACE);
  }

  /** Alternate repositories go to shard a and b; one controller without a selector takes both until the split. */
  private static String shardOf(int repository) {
    return repository % 2 == 0 ? "a" : "b";
  }

  /** The namespace, once: Git credentials (both controllers read {@code username} and {@code password}), the hook. */
  private static void prepareNamespace(KubernetesClient client, RunningGitServers servers, String namespace) {
    if (client.namespaces().withName(namespace).get() != null) {
      return;
    }
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("git")
        .endMetadata().addToStringData("username", servers.http().credentials().username())
        .addToStringData("password", servers.http().credentials().password()).build()).create();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().addToStringData("token", WEBHOOK_TOKEN).build()).create();
  }

  private static FunctionRepository functionRepository(KubernetesClient client, TeamRepository team,
      String namespace, String shard) {
    return client.getKubernetesSerialization().unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata:
          name: %s
          namespace: %s
          labels: {gitfn.io/shard: %s}
        spec:
          url: %s
          ref: {branch: main}
          path: %s
          interval: 1m
          secretRef: {name: git}
          webhook: {secretRef: {name: hook}}
        """.formatted(team.name(), namespace, shard, team.url(), InfraRepository.FOLDER), FunctionRepository.class);
  }

  private static GenericKubernetesResource gitRepository(TeamRepository team, String namespace) {
    GenericKubernetesResource repository = new GenericKubernetesResource();
    repository.setApiVersion("source.toolkit.fluxcd.io/v1");
    repository.setKind("GitRepository");
    repository.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(team.name())
        .withNamespace(namespace).build());
    repository.setAdditionalProperty("spec", Map.of("url", team.url(), "ref", Map.of("branch", "main"),
        "interval", "1m", "secretRef", Map.of("name", "git")));
    return repository;
  }

  @SuppressWarnings("unchecked")
  private static String fluxRevision(GenericKubernetesResource repository) {
    Object status = repository.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("artifact") instanceof Map<?, ?> artifact)) {
      return "";
    }
    return String.valueOf(((Map<String, Object>) artifact).getOrDefault("revision", ""));
  }

  private static String shardLabel(Function fn) {
    return fn.getMetadata().getLabels() == null ? null : fn.getMetadata().getLabels().get(Labels.SHARD);
  }

  private static boolean repositoryReady(FunctionRepository repository) {
    return repository.getStatus() != null && repository.getStatus().getConditions() != null
        && repository.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The Git clients' User-Agent products: JGit's (gitfn) and go-git's (Flux). */
  private static final String GITFN_GIT = "JGit";
  private static final String FLUX_GIT = "go-git";
  private static final String BYTES = " response bytes";

  private static double requestsBy(Map<String, Long> requests, String product) {
    return requests.entrySet().stream()
        .filter(e -> e.getKey().startsWith(product + " ") && !e.getKey().endsWith(BYTES))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /** Reconcile passes of {@code kind} the controller's metrics have counted, whatever their result. */
  private static double reconciled(ControllerProcess gitfn, String kind) {
    return metricSum(gitfn, "gitfn_reconcile_seconds_count", "kind=\"" + kind + "\"");
  }

  private static double metricSum(ControllerProcess gitfn, String name, String... labels) {
    String text = scrape(gitfn);
    double sum = 0;
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(name) && Arrays.stream(labels).allMatch(m.group(2)::contains)) {
        sum += Double.parseDouble(m.group(3));
      }
    }
    return sum;
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static String scrape(ControllerProcess gitfn) {
    try {
      return HTTP.send(HttpRequest.newBuilder(gitfn.operations().resolve("/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** The live set: the used heap after a full collection that {@code jcmd GC.run} asks for. */
  private static double liveHeapMib(ControllerProcess gitfn) throws IOException, InterruptedException {
    gitfn.jcmd("GC.run");
    return ControllerBenchmark.heapMib(gitfn.jcmd("GC.heap_info"), 2);
  }


  /** Polls {@code state} every second (waiting for a state, not timing one); returns when it held. */
  private static long awaitState(BooleanSupplier state, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!state.getAsBoolean()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("waited " + timeout.toSeconds() + " s for " + what);
        }
        Thread.sleep(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + what, e);
    }
    return System.nanoTime();
  }

  private static long await(CompletableFuture<Long> at, String what) throws Exception {
    try {
      return at.get(CHANGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("waited " + CHANGE_TIMEOUT.toSeconds() + " s for " + what);
    }
  }


}
