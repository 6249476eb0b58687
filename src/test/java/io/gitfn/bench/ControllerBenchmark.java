package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.build.SourceLayer;
import io.gitfn.controller.Controller;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.function.LayeredImages;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.RunningGitServers;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.WorkloadSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The Function controller in cluster mode (the test bed plays install Jobs, kwok makes Pods Ready):
 *
 * <ol>
 *   <li>{@value #FUNCTIONS} Functions from one commit of an infra repository to Ready, with the controller's API
 *       writes per Function, counted on its client;
 *   <li>{@value #REVERTS} changes and their reverts pushed to that repository, each announced by a signed generic
 *       webhook: from sending the delivery to the Function's Deployment on the new image (a handler change: the
 *       controller pushes a source layer, no Job), and back on the earlier image (no push, no Job, by design);
 *   <li>{@code gitfn.jar controller} as a child process on a second cluster, with {@value #RSS_FUNCTIONS} Ready
 *       Functions: its resident memory;
 *   <li>that controller's dashboard: the page listing all of them loaded and kept open by a few viewers (load time,
 *       memory, CPU, API requests), and a Function's page kept open by one viewer and by several (API requests);
 *   <li>{@value #PUSHES} handler-only changes at once, which that controller assembles in-process: its live heap.
 * </ol>
 * The child controller builds with the layered builder (docs/functions.md#layered-images) against the test bed's
 * registry; so does the in-process one of parts 1 and 2 ({@link KwokLayeredBuilds}).
 */
final class ControllerBenchmark implements Benchmark {

  private static final int FUNCTIONS = 200;
  private static final int REVERTS = 20;
  /** Reverts take turns over this many Functions. */
  private static final int REVERTED_FUNCTIONS = 4;
  private static final int RSS_FUNCTIONS = 1000;
  private static final int RSS_BATCH = 200;
  /** Handler-only changes pushed at once in part 5. */
  private static final int PUSHES = 100;
  private static final Duration HEAP_SAMPLE = Duration.ofMillis(250);
  private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
  /**
   * Quoted, not measured: Kyma Serverless's best documented build (Node.js, no dependencies, no limits, on 5 AWS
   * m5.xlarge nodes; Serverless 1.5.0's docs/user/00-50-limitations.md), which it repeats on every rollback.
   */
  private static final double KYMA_DOCUMENTED_BUILD_MS = 15_000;
  private static final String NAMESPACE = "bench";
  private static final String REPOSITORY = "infra";
  private static final String WEBHOOK_TOKEN = "bench-webhook-token";
  private static final Duration STEP = Duration.ofSeconds(60);
  private static final Duration BATCH = Duration.ofMinutes(5);
  private static final Duration SETTLE = Duration.ofSeconds(10);
  /** A request as {@link WriteCounter} names it, starting with its method: {@code PATCH functions/status}. */
  private static final String REQUEST = "[A-Z]+ .+";
  /** The controller's product name in its User-Agent, as the audit log has it. */
  private static final String CONTROLLER = "gitfn";

  private static final String CREATION = FUNCTIONS + " Functions (one commit)";
  static final Row ALL_EXIST = Row.millis(CREATION + ": repository created → all exist");
  static final Row HALF_READY = Row.millis(CREATION + ": repository created → half Ready");
  static final Row ALL_AVAILABLE = Row.millis(CREATION + ": repository created → all Deployments available");
  static final Row ALL_READY = Row.millis(CREATION + ": repository created → all Ready");
  static final Row TO_DEPLOYMENT = Row.millis("  a Function created → its Deployment created on its image (one install"
      + " Job for all, which the test bed plays, then the controller's own pushes), p50");
  static final Row TO_AVAILABLE =
      Row.millis("  Deployment created → available (ReplicaSet, scheduler, kwok), p50");
  static final Row TO_READY = Row.millis("  Deployment available → Function Ready (controller), p50");
  static final Row TO_READY_MAX = Row.millis("  Deployment available → Function Ready (controller), max");
  static final Row WRITES = Row.count("controller API writes per Function, until all Ready");
  static final Row WRITES_BY_REQUEST = Row.family("  ", REQUEST, "n");
  static final Row CONFLICTS = Row.family("  answered 409 Conflict: ", REQUEST, "n");
  static final Row WRITES_AFTER = Row.count("controller API writes in the " + SETTLE.toSeconds()
      + " s after the last Ready");
  static final Row CHANGE_P50 = Row.millis("signed webhook delivery of a change → the Function's Deployment on the new"
      + " image (a source layer pushed in-process), p50 (of " + REVERTS + ")");
  static final Row CHANGE_SLOWEST = Row.millis("signed webhook delivery of a change → the Function's Deployment on"
      + " the new image, slowest of " + REVERTS);
  static final Row REVERT_P50 = Row.millis("signed webhook delivery of a revert → the Deployment on the earlier"
      + " image, p50 (of " + REVERTS + ")", Target.atMost(2_000));
  static final Row REVERT_SLOWEST = Row.millis("signed webhook delivery of a revert → the Deployment on the earlier"
      + " image, slowest of " + REVERTS);
  static final Row REVERT_JOBS = Row.count("Jobs created by the " + REVERTS + " reverts", Target.exactly(0));
  static final Row KYMA_RATIO = Row.of("Kyma's documented 15 s build (quoted, not measured here) ÷ revert p50",
      "x", null);
  private static final String MANY = RSS_FUNCTIONS + " Functions (" + RSS_FUNCTIONS / RSS_BATCH + " commits of "
      + RSS_BATCH + ")";
  static final Row MANY_READY = Row.millis(MANY + ": first push → all Ready (child controller)");
  static final Row RSS = Row.of("controller VmRSS with " + MANY, "MiB", Target.atMost(256));
  static final Row PEAK_RSS = Row.of("controller VmHWM (peak RSS) over the run", "MiB", null);
  /** Only with {@code -Dbench.nmt=true}. */
  static final Row NATIVE = Row.family("  native memory tracking, committed: ", ".+", "MiB");
  static final Row HEAP_USED = Row.of("controller heap used (before a full GC)", "MiB", null);
  static final Row LIVE_HEAP = Row.of("controller heap used after a full GC (live set)", "MiB", null);
  static final Row INSTALL_JOBS = Row.count("  install Jobs for them (the same dependencies: one)", Target.exactly(1));
  static final Row PUSHES_DONE = Row.millis(PUSHES + " handler-only changes in one commit → all run their new image"
      + " (requested sync, in-process pushes)");
  static final Row PUSHES_SYNC_HEAP = Row.of("  controller live heap while the sync applies them, most over before",
      "MiB", null);
  static final Row PUSHES_HEAP = Row.of("  controller live heap after the sync, while they push, most over before (cap "
      + SourceLayer.LIMITS.maxBytes() / (1024 * 1024) + " MiB × " + LayeredImages.THREADS + " push threads)", "MiB",
      Target.atMost(SourceLayer.LIMITS.maxBytes() / (1024.0 * 1024) * LayeredImages.THREADS));
  static final Row PUSHES_SAMPLES = Row.count("  live heap samples taken (a full GC each)");
  static final Row PUSHES_INSTALLS = Row.count("  install Jobs for them", Target.exactly(0));
  private static final int VIEWERS = 3;
  private static final Duration VIEWING = Duration.ofSeconds(60);
  private static final Duration AT_REST = Duration.ofSeconds(30);
  private static final Duration FUNCTION_VIEWING = Duration.ofSeconds(30);
  /**
   * The most requests a Function's page may cost in {@link #FUNCTION_VIEWING}, whoever looks: a look every 5 s at most
   * (BuildLogs.FRESH, RecentEvents.FRESH), one more for the window's edges, and four requests a look: its Events, its
   * build Job's Pod, that Pod again (fabric8 checks it is ready or done before it asks for a log) and the log.
   */
  private static final int FUNCTION_PAGE_REQUESTS = 4 * (int) (FUNCTION_VIEWING.toSeconds() / 5 + 1);
  static final Row PAGE_BYTES = Row.of("dashboard: the repository's page, " + RSS_FUNCTIONS + " Functions listed",
      "KiB", null);
  static final Row PAGE_SERVED = Row.millis("  served in full (HTTP GET, one after another), p50 of "
      + DashboardCost.FULL_LOADS);
  static final Row PAGE_SERVED_MAX = Row.millis("  served in full, slowest of " + DashboardCost.FULL_LOADS);
  static final Row PAGE_BROWSER = Row.millis("  headless Chromium, navigation → load event, p50 of "
      + DashboardCost.BROWSER_LOADS);
  static final Row REST_REQUESTS = Row.count("  controller API requests (get, list, writes) in " + AT_REST.toSeconds()
      + " s with no viewer");
  private static final String OPEN = VIEWERS + " viewers keeping it open " + VIEWING.toSeconds() + " s";
  static final Row PAGE_REQUESTS = Row.count("  controller API requests while " + OPEN, Target.exactly(0));
  static final Row PAGE_CPU = Row.of("  controller CPU while " + OPEN + ", share of one core", "%", null);
  static final Row PAGE_HEAP = Row.of("  controller live heap after " + OPEN + ", minus before", "MiB", null);
  static final Row PAGE_RSS = Row.of("  controller VmRSS after " + OPEN + ", minus before", "MiB", null);
  static final Row FUNCTION_SERVED = Row.millis("dashboard: a Function's page (Events, build Job, its log), served in"
      + " full (one after another), p50 of " + DashboardCost.FULL_LOADS);
  static final Row FUNCTION_ONE = Row.count("  controller API requests while 1 viewer keeps it open "
      + FUNCTION_VIEWING.toSeconds() + " s");
  static final Row FUNCTION_MANY = Row.count("  controller API requests while " + VIEWERS + " viewers keep it open "
      + FUNCTION_VIEWING.toSeconds() + " s", Target.atMost(FUNCTION_PAGE_REQUESTS));
  static final Row FUNCTION_MANY_BY_REQUEST = Row.family("  of these, ", "[a-z]+ .+", "n");

  @Override
  public String name() {
    return "controller";
  }

  @Override
  public String description() {
    return FUNCTIONS + " Functions to Ready, " + REVERTS + " reverts by webhook, controller RSS with "
        + RSS_FUNCTIONS + " Functions";
  }

  @Override
  public List<Row> rows() {
    return List.of(ALL_EXIST, HALF_READY, ALL_AVAILABLE, ALL_READY, TO_DEPLOYMENT, TO_AVAILABLE,
        TO_READY, TO_READY_MAX, WRITES, WRITES_BY_REQUEST, CONFLICTS, WRITES_AFTER, CHANGE_P50, CHANGE_SLOWEST,
        REVERT_P50, REVERT_SLOWEST, REVERT_JOBS, KYMA_RATIO, MANY_READY, RSS, PEAK_RSS, NATIVE, HEAP_USED, LIVE_HEAP,
        INSTALL_JOBS, PAGE_BYTES, PAGE_SERVED, PAGE_SERVED_MAX, PAGE_BROWSER, REST_REQUESTS, PAGE_REQUESTS, PAGE_CPU, PAGE_HEAP,
        PAGE_RSS, FUNCTION_SERVED, FUNCTION_ONE, FUNCTION_MANY, FUNCTION_MANY_BY_REQUEST, PUSHES_DONE, PUSHES_SYNC_HEAP, PUSHES_HEAP, PUSHES_SAMPLES,
        PUSHES_INSTALLS);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path runs = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/controller-runs"));
    List<Metric> metrics = new ArrayList<>();
    try (RunningGitServers servers = RunningGitServers.start()) {
      // A cluster each, so that the child controller finds only its own Functions.
      try (KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(runs, "bed-in-process-"))) {
        inProcess(bed.withCluster(), servers, Files.createTempDirectory(runs, "mirrors-"), metrics);
      }
      Path child = Files.createTempDirectory(runs, "child-controller-");
      AuditedRequests audit = AuditedRequests.readsAndWritesIn(child.resolve("audit"));
      try (KubeTestBed bed = KubeTestBed.start(Files.createTempDirectory(runs, "bed-child-"), audit.apiServerFlags())) {
        residentMemory(bed.withCluster(), servers, child, audit, metrics);
      }
    }
    return metrics;
  }

  /** Parts 1 and 2: the controller in this JVM, on a client that counts its writes. */
  private void inProcess(KubeTestBed bed, RunningGitServers servers, Path mirrors, List<Metric> metrics)
      throws Exception {
    bed.installCrds();
    InfraRepository infra = InfraRepository.create(servers, "infra");
    List<String> names = IntStream.range(0, FUNCTIONS).mapToObj(ControllerBenchmark::functionName).toList();
    for (String name : names) {
      infra.write(name, "v1");
    }
    infra.push(FUNCTIONS + " Functions");
    WriteCounter writes = new WriteCounter();
    try (KubernetesClient client = bed.newClient()) {
      prepareNamespace(client, servers, true);
      try (Observed<Function> functions = Observed.start(client, Function.class, NAMESPACE);
          Observed<Deployment> deployments = Observed.start(client, Deployment.class, NAMESPACE);
          Observed<Job> jobs = Observed.byLabel(client, Job.class, NAMESPACE, Labels.FUNCTION_NAME);
          KubernetesClient controllerClient = writes.client(bed.config());
          Controller controller = Controller.start(controllerClient,
              SourceSettings.defaults(mirrors), WebhookSettings.defaults(),
              ControllerSettings.defaults(), bed.layeredBuilds().settings(),
          WorkloadSettings.defaults(), "127.0.0.1", 0)) {
        creation(client, infra, names, functions, jobs, deployments, writes, metrics);
        reverts(infra, new GenericWebhook(controller.webhookUri(), WEBHOOK_TOKEN), functions, deployments, jobs,
            metrics);
      }
    }
  }

  /** Part 1: the FunctionRepository is created after its commit of {@value #FUNCTIONS} Functions is pushed. */
  private void creation(KubernetesClient client, InfraRepository infra, List<String> names,
      Observed<Function> functions, Observed<Job> jobs, Observed<Deployment> deployments, WriteCounter writes,
      List<Metric> metrics) throws Exception {
    // Each Function's way to Ready, step by step, to tell the controller's time from the cluster's.
    List<CompletableFuture<Long>> exist = each(names, functions, f -> true);
    List<CompletableFuture<Long>> deploymentCreated = each(names, deployments, d -> true);
    List<CompletableFuture<Long>> available = each(names, deployments, ControllerBenchmark::available);
    List<CompletableFuture<Long>> ready = each(names, functions, ControllerBenchmark::ready);
    Map<String, Long> writesBefore = writes.snapshot();
    Map<String, Long> conflictsBefore = writes.conflicts();
    long start = System.nanoTime();
    client.resource(repository(client, infra, true)).create();
    double[] existed = millisSince(start, awaitAll(exist, BATCH, "Functions to exist"));
    double[] readyAt = millisSince(start, awaitAll(ready, BATCH, "Functions to be Ready"));
    double[] deploymentCreatedAt = millisSince(start, awaitAll(deploymentCreated, STEP, "Deployments to exist"));
    double[] availableAt = millisSince(start, awaitAll(available, STEP, "Deployments to be available"));
    Map<String, Long> writesAtReady = WriteCounter.since(writesBefore, writes.snapshot());
    Map<String, Long> conflicts = WriteCounter.since(conflictsBefore, writes.conflicts());
    Thread.sleep(SETTLE.toMillis()); // a window for trailing writes, not a wait for a state
    Map<String, Long> writesAfter = WriteCounter.since(writesBefore, writes.snapshot());

    metrics.add(ALL_EXIST.value(max(existed)));
    metrics.add(HALF_READY.value(percentile(readyAt, 50)));
    metrics.add(ALL_AVAILABLE.value(max(availableAt)));
    metrics.add(ALL_READY.value(max(readyAt)));
    // The Deployment is applied in the pass that pushed the image, before that pass writes BuildReady.
    metrics.add(TO_DEPLOYMENT.value(percentile(minus(deploymentCreatedAt, existed), 50)));
    metrics.add(TO_AVAILABLE.value(percentile(minus(availableAt, deploymentCreatedAt), 50)));
    double[] lag = minus(readyAt, availableAt);
    metrics.add(TO_READY.value(percentile(lag, 50)));
    metrics.add(TO_READY_MAX.value(max(lag)));
    metrics.add(WRITES.value(perFunction(WriteCounter.total(writesAtReady))));
    writesAtReady.forEach((key, count) -> metrics.add(WRITES_BY_REQUEST.value(key, perFunction(count))));
    conflicts.forEach((key, count) -> metrics.add(CONFLICTS.value(key, perFunction(count))));
    metrics.add(WRITES_AFTER.value(WriteCounter.total(writesAfter) - WriteCounter.total(writesAtReady)));
  }

  /**
   * Part 2: each round changes one Function's source (a new content key: a source layer the controller pushes) and
   * waits until it runs, then pushes the revert. Each push is announced by a signed delivery to the controller's
   * webhook receiver, and timed from sending it to the watch event of the Deployment's pod template on the image.
   */
  private void reverts(InfraRepository infra, GenericWebhook webhook, Observed<Function> functions,
      Observed<Deployment> deployments, Observed<Job> jobs, List<Metric> metrics) throws Exception {
    double[] changes = new double[REVERTS];
    double[] reverts = new double[REVERTS];
    int jobsByReverts = 0;
    for (int round = 0; round < REVERTS; round++) {
      String name = functionName(round % REVERTED_FUNCTIONS);
      String earlier = Objects.requireNonNull(functions.get(name).getStatus().getImage());

      CompletableFuture<Long> rolledForward = deployments.when(name, d -> !earlier.equals(image(d)));
      CompletableFuture<Long> changed = functions.when(name,
          f -> ready(f) && !earlier.equals(f.getStatus().getImage()));
      String sha = infra.write(name, "change " + round).push("change " + name);
      long sent = System.nanoTime();
      webhook.push(infra.url(), sha);
      changes[round] = (await(rolledForward, "the change of " + name) - sent) / 1e6;
      await(changed, name + " to be Ready after its change");

      int jobsBefore = jobs.added();
      CompletableFuture<Long> rolledBack = deployments.when(name, d -> earlier.equals(image(d)));
      CompletableFuture<Long> reverted = functions.when(name,
          f -> ready(f) && earlier.equals(f.getStatus().getImage()));
      sha = infra.pushRevertOfHead();
      sent = System.nanoTime();
      webhook.push(infra.url(), sha);
      reverts[round] = (await(rolledBack, "the revert of " + name) - sent) / 1e6;
      await(reverted, name + " to be Ready after its revert");
      jobsByReverts += jobs.added() - jobsBefore;
    }
    double revertP50 = percentile(reverts, 50);
    metrics.add(CHANGE_P50.value(percentile(changes, 50)));
    metrics.add(CHANGE_SLOWEST.value(max(changes)));
    metrics.add(REVERT_P50.value(revertP50));
    metrics.add(REVERT_SLOWEST.value(max(reverts)));
    metrics.add(REVERT_JOBS.value(jobsByReverts));
    metrics.add(KYMA_RATIO.value(KYMA_DOCUMENTED_BUILD_MS / revertP50));
  }

  /** Part 3: {@code gitfn.jar controller} in a JVM of its own; Functions arrive in commits of {@value #RSS_BATCH}. */
  private void residentMemory(KubeTestBed bed, RunningGitServers servers, Path run, AuditedRequests audit,
      List<Metric> metrics)
      throws Exception {
    bed.installCrds();
    InfraRepository infra = InfraRepository.create(servers, "infra-child");
    KwokLayeredBuilds pack = bed.layeredBuilds();
    try (KubernetesClient client = bed.newClient();
        Observed<Function> functions = Observed.start(client, Function.class, NAMESPACE);
        ControllerProcess controller = ControllerProcess.start(
            TestBedBinaries.projectDir().resolve("target/gitfn.jar"), bed.kubeconfig(),
            Files.createDirectories(run.resolve("mirrors")), run.resolve("controller.log"), STEP,
            ControllerProcess.JVM_FLAGS, pack.flags())) {
      prepareNamespace(client, servers, false);
      System.out.println("controller pid " + controller.pid() + ", JVM flags " + ControllerProcess.JVM_FLAGS + ":\n"
          + controller.jcmd("VM.flags"));
      long start = System.nanoTime();
      for (int batch = 0; batch * RSS_BATCH < RSS_FUNCTIONS; batch++) {
        List<String> names = IntStream.range(batch * RSS_BATCH, (batch + 1) * RSS_BATCH)
            .mapToObj(ControllerBenchmark::functionName).toList();
        for (String name : names) {
          infra.write(name, "v1");
        }
        List<CompletableFuture<Long>> ready = each(names, functions, ControllerBenchmark::ready);
        infra.push("Functions " + names.get(0) + " to " + names.get(names.size() - 1));
        if (batch == 0) {
          client.resource(repository(client, infra, false)).create();
        } else {
          requestSync(client);
        }
        awaitAll(ready, BATCH, "Functions of batch " + (batch + 1) + " to be Ready");
        System.out.printf("batch %d: %d Functions Ready after %.0f s%n", batch + 1,
            functions.count(ControllerBenchmark::ready), (System.nanoTime() - start) / 1e9);
      }
      double elapsed = (System.nanoTime() - start) / 1e6;
      Map<String, Long> memory = controller.memoryKib();
      Map<String, Long> committed = controller.committedKib();
      String heapBeforeGc = controller.jcmd("GC.heap_info");
      controller.jcmd("GC.run");
      String heapAfterGc = controller.jcmd("GC.heap_info");
      String histogram = controller.jcmd("GC.class_histogram");
      System.out.println("controller memory " + memory + "\ncommitted " + committed + "\nheap before a full GC:\n"
          + heapBeforeGc + "\nheap after a full GC:\n" + heapAfterGc + "\nlargest classes of the live heap:\n"
          + histogram.lines().limit(30).collect(Collectors.joining("\n")));
      Files.writeString(run.resolve("live-heap-histogram.txt"), histogram);

      metrics.add(MANY_READY.value(elapsed));
      metrics.add(RSS.value(memory.get("VmRSS") / 1024.0));
      metrics.add(PEAK_RSS.value(memory.get("VmHWM") / 1024.0));
      committed.forEach((category, kib) -> {
        if (category.equals("Total") || kib >= 4096) {
          metrics.add(NATIVE.value(category, kib / 1024.0));
        }
      });
      metrics.add(HEAP_USED.value(heapMib(heapBeforeGc, 2)));
      metrics.add(LIVE_HEAP.value(heapMib(heapAfterGc, 2)));
      metrics.add(INSTALL_JOBS.value(pack.ended()));
      dashboard(controller, audit, memory.get("VmRSS"), heapMib(heapAfterGc, 2), metrics);
      handlerPushes(controller, client, infra, functions, pack, run, metrics);
      if (!pack.failures().isEmpty()) {
        throw new IllegalStateException("install Jobs the benchmark could not play: " + pack.failures());
      }
    }
  }

  /**
   * Part 5: {@value #PUSHES} handler-only changes in one commit, so {@value #PUSHES} source layers are assembled
   * in-process at once. The live heap is sampled every {@link #HEAP_SAMPLE} with {@code GC.class_histogram} (a full
   * GC, then the live objects by class) until all of them run their new image. Its growth over the live heap before
   * is told apart in two windows: while the repository's sync applies the commit (it reads and diffs all
   * {@value #RSS_FUNCTIONS} Functions), and after, when what remains is the pushes, which the push pool's size times the
   * source layer's cap bounds. The largest sample's histogram is kept in {@code push-peak-histogram.txt}.
   */
  private static void handlerPushes(ControllerProcess controller, KubernetesClient client, InfraRepository infra,
      Observed<Function> functions, KwokLayeredBuilds pack, Path run, List<Metric> metrics) throws Exception {
    List<String> names = IntStream.range(0, PUSHES).mapToObj(ControllerBenchmark::functionName).toList();
    Map<String, String> before = new HashMap<>();
    for (String name : names) {
      before.put(name, client.resources(Function.class).inNamespace(NAMESPACE).withName(name).get().getStatus()
          .getImage());
      infra.write(name, "v2");
    }
    double liveBefore = liveHeapMib(controller.jcmd("GC.class_histogram"));
    int installsBefore = pack.ended();
    List<CompletableFuture<Long>> pushed = each(names, functions, fn -> ready(fn)
        && !fn.getStatus().getImage().equals(before.get(fn.getMetadata().getName())));
    String sha = infra.push(PUSHES + " handler-only changes");
    long start = System.nanoTime();
    requestSync(client);
    double peakSyncing = liveBefore;
    double peakPushing = liveBefore;
    String peakHistogram = "";
    int samples = 0;
    CompletableFuture<Void> all = CompletableFuture.allOf(pushed.toArray(CompletableFuture[]::new));
    while (!all.isDone() && System.nanoTime() - start < BATCH.toNanos()) {
      boolean applied = applied(client, sha); // asked before the sample: a sample after it is past the sync
      String histogram = controller.jcmd("GC.class_histogram");
      double live = liveHeapMib(histogram);
      if (live > Math.max(peakSyncing, peakPushing)) {
        peakHistogram = histogram;
      }
      if (applied) {
        peakPushing = Math.max(peakPushing, live);
      } else {
        peakSyncing = Math.max(peakSyncing, live);
      }
      samples++;
      Thread.sleep(HEAP_SAMPLE.toMillis());
    }
    double[] at = millisSince(start, awaitAll(pushed, STEP, PUSHES + " Functions to run their handler-only change"));
    Files.writeString(run.resolve("push-peak-histogram.txt"), peakHistogram);
    System.out.printf("%d handler-only pushes: live heap %.1f MiB before, at most %.1f MiB while the sync applied"
        + " them, %.1f MiB after, in %d samples; largest classes at the peak:%n%s%n", PUSHES, liveBefore, peakSyncing,
        peakPushing, samples, peakHistogram.lines().limit(25).collect(Collectors.joining("\n")));
    metrics.add(PUSHES_DONE.value(max(at)));
    metrics.add(PUSHES_SYNC_HEAP.value(peakSyncing - liveBefore));
    metrics.add(PUSHES_HEAP.value(peakPushing - liveBefore));
    metrics.add(PUSHES_SAMPLES.value(samples));
    metrics.add(PUSHES_INSTALLS.value(pack.ended() - installsBefore));
  }

  private static boolean applied(KubernetesClient client, String sha) {
    FunctionRepository repository = client.resources(FunctionRepository.class).inNamespace(NAMESPACE)
        .withName(REPOSITORY).get();
    return repository.getStatus() != null && repository.getStatus().getLastAppliedRevision() != null
        && repository.getStatus().getLastAppliedRevision().contains(sha);
  }

  /** The live heap from {@code jcmd GC.class_histogram}'s {@code Total} line (instances, bytes), in MiB. */
  static double liveHeapMib(String histogram) {
    Matcher total = HISTOGRAM_TOTAL.matcher(histogram);
    if (!total.find()) {
      throw new IllegalStateException("no Total line in the class histogram: " + histogram.lines().limit(5).toList());
    }
    return Long.parseLong(total.group(1)) / (1024.0 * 1024);
  }


  /**
   * Part 4: the dashboard's cost with every Function listed on one page, and on one Function's page, which asks the
   * API server for what no informer holds. The memory is measured as above, after the loads and the viewing, against
   * the figures just taken; the API requests are the controller's, from the API server's audit log.
   */
  private static void dashboard(ControllerProcess controller, AuditedRequests audit, long rssBeforeKib,
      double liveBeforeMib, List<Metric> metrics) throws Exception {
    URI dashboard = controller.dashboard();
    DashboardCost repositoryPage = new DashboardCost(dashboard.resolve("repositories/" + NAMESPACE + "/"
        + REPOSITORY));
    DashboardCost.Loads served = repositoryPage.served();
    double[] browser = repositoryPage.inBrowser();
    long mark = audit.mark();
    Thread.sleep(AT_REST.toMillis()); // a window with no viewer, to compare with
    Map<String, Long> atRest = audit.since(mark, CONTROLLER);

    Duration cpuBefore = controller.cpu();
    mark = audit.mark();
    long start = System.nanoTime();
    DashboardCost.Viewing viewing = repositoryPage.keepOpen(VIEWERS, VIEWING);
    double cpuShare = (controller.cpu().minus(cpuBefore).toNanos()) * 100.0 / (System.nanoTime() - start);
    Map<String, Long> whileViewed = audit.since(mark, CONTROLLER);
    long rssAfterKib = controller.memoryKib().get("VmRSS");
    controller.jcmd("GC.run");
    double liveAfterMib = heapMib(controller.jcmd("GC.heap_info"), 2);
    System.out.printf("dashboard: %d bytes; served p50 %.0f ms; Chromium p50 %.0f ms; %s; CPU %.2f %%;"
        + " requests at rest %s, while viewed %s%n", served.bytes(), percentile(served.millis(), 50),
        percentile(browser, 50), viewing, cpuShare, atRest, whileViewed);
    viewing.requireAnswered();

    DashboardCost functionPage = new DashboardCost(dashboard.resolve("functions/" + NAMESPACE + "/"
        + functionName(0)));
    DashboardCost.Loads functionServed = functionPage.served();
    mark = audit.mark();
    functionPage.keepOpen(1, FUNCTION_VIEWING).requireAnswered();
    Map<String, Long> oneViewer = audit.since(mark, CONTROLLER);
    mark = audit.mark();
    functionPage.keepOpen(VIEWERS, FUNCTION_VIEWING).requireAnswered();
    Map<String, Long> manyViewers = audit.since(mark, CONTROLLER);
    System.out.printf("a Function's page: served p50 %.0f ms; requests with one viewer %s, with %d %s%n",
        percentile(functionServed.millis(), 50), oneViewer, VIEWERS, manyViewers);

    metrics.add(PAGE_BYTES.value(served.bytes() / 1024.0));
    metrics.add(PAGE_SERVED.value(percentile(served.millis(), 50)));
    metrics.add(PAGE_SERVED_MAX.value(max(served.millis())));
    metrics.add(PAGE_BROWSER.value(percentile(browser, 50)));
    metrics.add(REST_REQUESTS.value(AuditedRequests.total(atRest)));
    metrics.add(PAGE_REQUESTS.value(AuditedRequests.total(whileViewed)));
    metrics.add(PAGE_CPU.value(cpuShare));
    metrics.add(PAGE_HEAP.value(liveAfterMib - liveBeforeMib));
    metrics.add(PAGE_RSS.value((rssAfterKib - rssBeforeKib) / 1024.0));
    metrics.add(FUNCTION_SERVED.value(percentile(functionServed.millis(), 50)));
    metrics.add(FUNCTION_ONE.value(AuditedRequests.total(oneViewer)));
    metrics.add(FUNCTION_MANY.value(AuditedRequests.total(manyViewers)));
    manyViewers.forEach((request, count) -> metrics.add(FUNCTION_MANY_BY_REQUEST.value(request, count)));
  }

  /** The namespace, the Git credentials, and with {@code webhook} the Secret that signs deliveries. */
  private static void prepareNamespace(KubernetesClient client, RunningGitServers servers, boolean webhook) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .addToStringData("username", servers.http().credentials().username())
        .addToStringData("password", servers.http().credentials().password()).build()).create();
    if (webhook) {
      client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("hook")
          .endMetadata().addToStringData("token", WEBHOOK_TOKEN).build()).create();
    }
  }

  /** Polls once an hour: a webhook or a requested sync is what brings each commit. */
  private static FunctionRepository repository(KubernetesClient client, InfraRepository infra, boolean webhook) {
    return client.getKubernetesSerialization().unmarshal("""
        apiVersion: gitfn.io/v1alpha1
        kind: FunctionRepository
        metadata: {name: %s, namespace: %s}
        spec:
          url: %s
          ref: {branch: main}
          path: %s
          interval: 1h
          secretRef: {name: git}
        %s""".formatted(REPOSITORY, NAMESPACE, infra.url(), InfraRepository.FOLDER,
        webhook ? "  webhook: {secretRef: {name: hook}}\n" : ""), FunctionRepository.class);
  }

  /** A merge patch of the one annotation, as {@code gitfn reconcile} sends it: no resourceVersion to conflict on. */
  private static void requestSync(KubernetesClient client) {
    client.resources(FunctionRepository.class).inNamespace(NAMESPACE).withName(REPOSITORY)
        .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(Map.of("metadata",
            Map.of("annotations", Map.of(Annotations.REQUESTED_AT, Instant.now().toString())))));
  }

  /** ConfigurationReady, BuildReady and Running all True for the current generation. */
  static boolean ready(Function fn) {
    if (fn.getStatus() == null || fn.getStatus().getConditions() == null
        || !Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        || fn.getStatus().getImage() == null) {
      return false;
    }
    List<Condition> conditions = fn.getStatus().getConditions();
    return conditions.size() == 3 && conditions.stream().allMatch(c -> "True".equals(c.getStatus()));
  }

  /** Every desired replica runs the current template and is available (what Running=True waits for). */
  private static boolean available(Deployment deployment) {
    var status = deployment.getStatus();
    int desired = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
    return status != null && status.getObservedGeneration() != null
        && status.getObservedGeneration() >= deployment.getMetadata().getGeneration()
        && Objects.requireNonNullElse(status.getUpdatedReplicas(), 0) >= desired
        && Objects.equals(status.getReplicas(), status.getUpdatedReplicas())
        && Objects.requireNonNullElse(status.getAvailableReplicas(), 0) >= desired;
  }

  static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().map(Container::getImage).orElse(null);
  }

  private static String functionName(int i) {
    return String.format("fn-%04d", i);
  }

  private static long await(CompletableFuture<Long> at, String what) throws Exception {
    try {
      return at.get(STEP.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("waited " + STEP.toSeconds() + " s for " + what);
    }
  }

  private static long[] awaitAll(List<CompletableFuture<Long>> all, Duration timeout, String what) throws Exception {
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      long done = all.stream().filter(CompletableFuture::isDone).count();
      throw new IllegalStateException("waited " + timeout.toSeconds() + " s for " + all.size() + " " + what + "; "
          + done + " are");
    }
    return all.stream().mapToLong(CompletableFuture::join).toArray();
  }

  private static <T extends HasMetadata> List<CompletableFuture<Long>> each(List<String> names, Observed<T> observed,
      Predicate<T> state) {
    return names.stream().map(n -> observed.when(n, state)).toList();
  }

  private static double[] minus(double[] later, double[] earlier) {
    return IntStream.range(0, later.length).mapToDouble(i -> later[i] - earlier[i]).toArray();
  }

  private static double[] millisSince(long start, long[] times) {
    return Arrays.stream(times).mapToDouble(t -> (t - start) / 1e6).toArray();
  }

  private static double perFunction(long writes) {
    return (double) writes / FUNCTIONS;
  }

  private static final Pattern HEAP = Pattern.compile("total (\\d+)K, used (\\d+)K");

  /**
   * From {@code jcmd GC.heap_info}: group 1 is the committed heap, group 2 the used heap, summed over the lines
   * that have them (G1 prints one, the serial collector one per generation).
   */
  static double heapMib(String heapInfo, int group) {
    Matcher m = HEAP.matcher(heapInfo);
    long kib = 0;
    boolean found = false;
    while (m.find()) {
      kib += Long.parseLong(m.group(group));
      found = true;
    }
    return found ? kib / 1024.0 : -1;
  }

  static double max(double[] values) {
    return Arrays.stream(values).max().orElse(0);
  }

  /** The nearest-rank percentile; NaN for no values. */
  static double percentile(double[] values, int p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
