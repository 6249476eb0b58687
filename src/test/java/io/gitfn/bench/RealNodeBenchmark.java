package io.gitfn.bench;

import static io.gitfn.bench.ControllerBenchmark.percentile;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.ServiceLoad;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * gitfn on a real node, as a team uses it: an infra repository in Gitea followed by a FunctionRepository (hourly
 * polling, so only the webhook brings a push), real build Jobs (buildah in Pods, packages from the mirrors on the
 * host), images in the node's registry:
 *
 * <ol>
 *   <li>a Python and a Node.js Function are built once on a fresh node and once more with a changed handler: the
 *       build Job's own time, cold and warm;
 *   <li>latency: {@value #PUSHES} pushes of a handler change, then {@value #REVERTS} reverts, each timed from the
 *       push until a new connection to the Service gets the new answer, step by step ({@link ChangeTimeline});
 *   <li>no downtime: as many pushes and reverts again under {@value #CLIENTS} clients that call without a pause on
 *       connections they keep open, and every request of them that did not get a 200.
 * </ol>
 *
 * <p>The targets are on new connections: a client that keeps its connection stays on the old Pod until that Pod
 * drains ({@code preStop}, then SIGTERM), which is the drain's time, not the Service's. Its figures are reported too.
 */
final class RealNodeBenchmark implements Benchmark {

  private static final int PUSHES = 10;
  private static final int REVERTS = 3;
  private static final int CLIENTS = 4;
  static final Duration BUILD_AND_ROLL_OUT = Duration.ofMinutes(6);
  static final String NAMESPACE = "bench";

  static final Row PUSH_P50 = Row.millis("push → new version answering a new connection through the Service, p50 ("
      + PUSHES + " pushes, build included)", Target.atMost(30_000));
  static final Row PUSH_APPLIED = Row.millis("  push → revision applied (webhook, fetch, apply), p50");
  static final Row PUSH_JOB_CREATED = Row.millis("  applied → build Job created, p50");
  static final Row PUSH_JOB = Row.millis("  build Job created → finished, p50");
  static final Row PUSH_DEPLOYMENT = Row.millis("  build Job finished → Deployment updated, p50");
  static final Row PUSH_ANSWER = Row.millis("  Deployment updated → new version answering, p50");
  static final Row PUSH_SLOWEST = Row.millis("push → new version answering, slowest of " + PUSHES);
  static final Row REVERT_P50 = Row.millis("revert pushed → earlier version answering a new connection, p50 ("
      + REVERTS + " reverts)", Target.atMost(5_000));
  static final Row REVERT_APPLIED = Row.millis("  revert pushed → revision applied, p50");
  static final Row REVERT_DEPLOYMENT = Row.millis("  revert pushed → Deployment updated, p50");
  static final Row REVERT_ANSWER = Row.millis("  Deployment updated → earlier version answering, p50");
  static final Row REVERT_SLOWEST = Row.millis("revert pushed → earlier version answering, slowest of " + REVERTS);
  static final Row LOADED_PUSH_P50 = Row.millis("under " + CLIENTS + " clients with no pause: push → the clients'"
      + " kept-open connections on the new version, p50 (" + PUSHES + " pushes)");
  static final Row LOADED_JOB = Row.millis("  build Job created → finished, p50");
  static final Row LOADED_REVERT_P50 = Row.millis("under " + CLIENTS + " clients with no pause: revert → the"
      + " clients on the earlier version, p50 (" + REVERTS + " reverts)");
  static final Row REVERT_BUILDS = Row.count("build Jobs the reverts created (" + 2 * REVERTS + " reverts)",
      Target.exactly(0));
  static final Row ANSWERED = Row.count("requests answered 200 under " + CLIENTS + " clients with no pause ("
      + PUSHES + " pushes and " + REVERTS + " reverts)");
  static final Row FAILED = Row.count("failed requests under " + CLIENTS + " clients with no pause", Target.exactly(0));
  static final Row NODE_COLD = Row.millis("build Job, nodejs22 with an npm dependency: first on a fresh node");
  static final Row NODE_WARM = Row.millis("build Job, nodejs22: later builds, p50");
  static final Row PYTHON_COLD = Row.millis("build Job, python312 with a pip dependency: first on a fresh node");
  static final Row PYTHON_WARM = Row.millis("build Job, python312: a later build");

  @Override
  public String name() {
    return "realnode";
  }

  @Override
  public String description() {
    return "gitfn on a real node: build Jobs, twice " + PUSHES + " pushes and " + REVERTS + " reverts through"
        + " Gitea's webhook, on new connections and under " + CLIENTS + " clients";
  }

  @Override
  public List<Row> rows() {
    return List.of(PUSH_P50, PUSH_APPLIED, PUSH_JOB_CREATED, PUSH_JOB, PUSH_DEPLOYMENT, PUSH_ANSWER, PUSH_SLOWEST,
        REVERT_P50, REVERT_APPLIED, REVERT_DEPLOYMENT, REVERT_ANSWER, REVERT_SLOWEST, LOADED_PUSH_P50, LOADED_JOB,
        LOADED_REVERT_P50, REVERT_BUILDS, ANSWERED, FAILED, NODE_COLD, NODE_WARM, PYTHON_COLD, PYTHON_WARM);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path dir = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/realnode-runs"));
    RealNode node = RealNode.shared();
    List<Metric> metrics = new ArrayList<>();
    try (NodeGitfn gitfn = NodeGitfn.start(node);
        KubernetesClient client = node.newClient();
        GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(dir, "gitea-"))) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
          .build()).create();
      BuildJobs builds = new BuildJobs(client, dir);
      client.serviceAccounts().inNamespace(NAMESPACE).withName("default")
          .waitUntilCondition(Objects::nonNull, 60, TimeUnit.SECONDS);
      gitfn.prepare(client, NAMESPACE);
      WorkingCopy copy = infraRepository(client, gitea, gitfn, Files.createTempDirectory(dir, "home-"));

      copy.write("functions/py.yaml", python("py", "1")).write("functions/hello.yaml", node("hello", "v0"))
          .commit("py and hello");
      copy.push("HEAD:refs/heads/main");
      awaitAnswer(client, "py", "py 1");
      awaitAnswer(client, "hello", "hello v0");
      copy.write("functions/py.yaml", python("py", "2")).commit("py 2");
      copy.push("HEAD:refs/heads/main");
      awaitAnswer(client, "py", "py 2");

      URI service = URI.create("http://" + client.services().inNamespace(NAMESPACE).withName("hello").get()
          .getSpec().getClusterIP() + "/");
      try (ChangeTimeline timeline = new ChangeTimeline(client, NAMESPACE, "infra", "hello")) {
        // The latency of a change: one client, a new connection per request, so it sees where the Service routes.
        Changes quiet = changes(client, copy, timeline, builds, () -> NewConnection.get(service), 0);
        metrics.add(PUSH_P50.value(p50(quiet.pushes(), s -> s.millis(s.pushed(), s.answering()))));
        metrics.add(PUSH_APPLIED.value(p50(quiet.pushes(), s -> s.millis(s.pushed(), s.applied()))));
        metrics.add(PUSH_JOB_CREATED.value(p50(quiet.pushes(), s -> s.millis(s.applied(), s.jobCreated()))));
        metrics.add(PUSH_JOB.value(p50(quiet.pushes(), s -> s.millis(s.jobCreated(), s.jobDone()))));
        metrics.add(PUSH_DEPLOYMENT.value(p50(quiet.pushes(), s -> s.millis(s.jobDone(), s.deploymentUpdated()))));
        metrics.add(PUSH_ANSWER.value(p50(quiet.pushes(), s -> s.millis(s.deploymentUpdated(), s.answering()))));
        metrics.add(PUSH_SLOWEST.value(slowest(quiet.pushes())));
        metrics.add(REVERT_P50.value(p50(quiet.reverts(), s -> s.millis(s.pushed(), s.answering()))));
        metrics.add(REVERT_APPLIED.value(p50(quiet.reverts(), s -> s.millis(s.pushed(), s.applied()))));
        metrics.add(REVERT_DEPLOYMENT.value(p50(quiet.reverts(), s -> s.millis(s.pushed(), s.deploymentUpdated()))));
        metrics.add(REVERT_ANSWER.value(p50(quiet.reverts(), s -> s.millis(s.deploymentUpdated(), s.answering()))));
        metrics.add(REVERT_SLOWEST.value(slowest(quiet.reverts())));

        // No downtime: the same changes under clients that call without a pause on connections they keep open.
        try (ServiceLoad load = ServiceLoad.start(service, CLIENTS)) {
          Changes loaded = changes(client, copy, timeline, builds, load::lastAnswer, quiet.version());
          load.stopAfterAnswers(50);
          metrics.add(LOADED_PUSH_P50.value(p50(loaded.pushes(), s -> s.millis(s.pushed(), s.answering()))));
          metrics.add(LOADED_JOB.value(p50(loaded.pushes(), s -> s.millis(s.jobCreated(), s.jobDone()))));
          metrics.add(LOADED_REVERT_P50.value(p50(loaded.reverts(), s -> s.millis(s.pushed(), s.answering()))));
          metrics.add(REVERT_BUILDS.value(quiet.revertBuilds() + loaded.revertBuilds()));
          metrics.add(ANSWERED.value(load.requests() - load.failures().size()));
          metrics.add(FAILED.value(load.failures().size()));
          if (!load.failures().isEmpty()) {
            System.err.println("failed requests: " + load.failures());
          }
        }
      }
      double[] nodeBuilds = builds.durations("hello-build-");
      double[] pythonBuilds = builds.durations("py-build-");
      builds.close();
      metrics.add(NODE_COLD.value(nodeBuilds[0]));
      metrics.add(NODE_WARM.value(percentile(Arrays.copyOfRange(nodeBuilds, 1, nodeBuilds.length), 50)));
      metrics.add(PYTHON_COLD.value(pythonBuilds[0]));
      metrics.add(PYTHON_WARM.value(pythonBuilds.length > 1 ? pythonBuilds[1] : Double.NaN));
    } finally {
      RealNode.stopShared();
    }
    return metrics;
  }

  static WorkingCopy infraRepository(KubernetesClient client, GiteaServer gitea, NodeGitfn gitfn, Path home)
      throws Exception {
    String cloneUrl = gitea.createRepository("infra");
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    client.secrets().inNamespace(NAMESPACE).resource(gitea.basicAuthSecret("git")).create();
    client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("hook")
        .endMetadata().withStringData(Map.of("token", "bench-hook")).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal(
        "---\n{apiVersion: gitfn.io/v1alpha1, kind: FunctionRepository, metadata: {name: infra, namespace: " + NAMESPACE
            + "}, spec: {url: '" + cloneUrl + "', ref: {branch: main}, path: functions, interval: 1h,"
            + " secretRef: {name: git}, webhook: {secretRef: {name: hook}}}}",
        FunctionRepository.class)).create();
    gitea.addWebhook("infra", gitfn.webhookUri().resolve("gitea"), "bench-hook");
    return copy;
  }

  private static String node(String name, String version) {
    return TestFunction.declared(name)
        .code("const ms = require('ms'); // installed by the build\nmodule.exports = { main: () => '" + name + " "
            + version + "' };\n")
        .dependencies("{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}")
        .toYaml();
  }

  private static String python(String name, String version) {
    return TestFunction.declared(name).runtime(FunctionRuntime.PYTHON312)
        .code("import six\n\ndef main(event, context):\n    return six.ensure_text('" + name + " " + version + "')\n")
        .dependencies("six==1.17.0\n")
        .toYaml();
  }

  /**
   * Waits until {@code name}'s Service answers {@code expected} on a new connection, as every row measures it: a
   * kept-alive connection would stay on the old Pod through its preStop pause and drain.
   */
  static void awaitAnswer(KubernetesClient client, String name, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (System.nanoTime() < deadline) {
      var service = client.services().inNamespace(NAMESPACE).withName(name).get();
      if (service != null && expected.equals(NewConnection.get(URI.create("http://" + service.getSpec().getClusterIP() + "/")))) {
        return;
      }
      Thread.sleep(500);
    }
    Function fn = client.resources(Function.class).inNamespace(NAMESPACE).withName(name).get();
    throw new IllegalStateException(name + " did not answer `" + expected + "` within " + BUILD_AND_ROLL_OUT
        + "; its status: " + (fn == null ? "no Function" : client.getKubernetesSerialization().asJson(fn.getStatus())));
  }



  /** The pushes and reverts of one round, and the build Jobs its reverts created (there should be none). */
  private record Changes(List<ChangeTimeline.Steps> pushes, List<ChangeTimeline.Steps> reverts, int revertBuilds,
      int version) {}

  /**
   * {@value #PUSHES} pushes of a new handler version after {@code version}, then {@value #REVERTS} reverts, each of
   * the commit before it (v10 → v9 → v10 → v9: every image built already), each timed until {@code answer} says
   * it.
   */
  private static Changes changes(KubernetesClient client, WorkingCopy copy, ChangeTimeline timeline,
      BuildJobs builds, Supplier<String> answer, int version) throws Exception {
    List<ChangeTimeline.Steps> pushes = new ArrayList<>();
    for (int i = 1; i <= PUSHES; i++) {
      String expected = "hello v" + (version + i);
      copy.write("functions/hello.yaml", node("hello", "v" + (version + i))).commit(expected);
      pushes.add(timed(timeline, "push of v" + (version + i), () -> copy.push("HEAD:refs/heads/main"),
          () -> expected.equals(answer.get())));
      settle(client, expected);
    }
    int last = version + PUSHES;
    int buildsBefore = builds.created();
    List<ChangeTimeline.Steps> reverts = new ArrayList<>();
    for (int i = 0; i < REVERTS; i++) {
      String expected = "hello v" + (i % 2 == 0 ? last - 1 : last);
      copy.git("revert", "--no-edit", "HEAD");
      reverts.add(timed(timeline, "revert to " + expected, () -> copy.push("HEAD:refs/heads/main"),
          () -> expected.equals(answer.get())));
      settle(client, expected);
    }
    // An even number of reverts leaves the last version; an odd one the version before it. Either way the next
    // round's first push is new content.
    return new Changes(pushes, reverts, builds.created() - buildsBefore, last);
  }

  /**
   * Waits until the change has finished rolling out: the Deployment's Pods are all of its current template, none is
   * still terminating, and new connections get {@code expected} every time. The first answer of a new version comes
   * while the old Pod still serves, so the next change must not start before this, or it would be timed against
   * the Pod of the version before.
   */
  static void settle(KubernetesClient client, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    URI service = URI.create("http://" + client.services().inNamespace(NAMESPACE).withName("hello").get().getSpec()
        .getClusterIP() + "/");
    int inARow = 0;
    while (inARow < 10) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("hello did not settle on `" + expected + "` within " + BUILD_AND_ROLL_OUT);
      }
      var deployment = client.apps().deployments().inNamespace(NAMESPACE).withName("hello").get();
      var status = deployment.getStatus();
      boolean rolledOut = status != null && Objects.equals(status.getObservedGeneration(),
          deployment.getMetadata().getGeneration())
          && Objects.equals(status.getUpdatedReplicas(), deployment.getSpec().getReplicas())
          && Objects.equals(status.getReplicas(), deployment.getSpec().getReplicas())
          && client.pods().inNamespace(NAMESPACE).withLabels(deployment.getSpec().getSelector().getMatchLabels())
              .list().getItems().stream().noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
      inARow = rolledOut && expected.equals(NewConnection.get(service)) ? inARow + 1 : 0;
      Thread.sleep(100);
    }
  }

  /** The steps of one change, from the push (started by {@code push}) until {@code done}; printed as it ends. */
  static ChangeTimeline.Steps timed(ChangeTimeline timeline, String change, Pusher push,
      Supplier<Boolean> done) throws Exception {
    long started = System.nanoTime();
    push.push();
    long deadline = started + BUILD_AND_ROLL_OUT.toNanos();
    while (!done.get()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(change + " did not answer within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(20);
    }
    ChangeTimeline.Steps steps = timeline.of(started, System.nanoTime());
    System.out.println("  " + change + ": " + (long) steps.millis(steps.pushed(), steps.answering()) + " ms ("
        + ChangeTimeline.describe(steps) + ")");
    return steps;
  }

  interface Pusher {
    void push() throws Exception;
  }

  /**
   * Every build Job of the namespace, seen as it runs: the controller deletes earlier keys' Jobs afterwards. The log
   * of each one that finishes, with the kubelet's timestamps, goes to the run directory: it says where a build's
   * time went.
   */
  private static final class BuildJobs implements AutoCloseable {
    private final Map<String, Job> finished = new ConcurrentHashMap<>();
    private final Set<String> uids = ConcurrentHashMap.newKeySet();
    private final Watch watch;

    BuildJobs(KubernetesClient client, Path logs) {
      watch = client.batch().v1().jobs().inNamespace(NAMESPACE).withLabel(Labels.CONTENT_KEY).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Job job) {
          uids.add(job.getMetadata().getUid());
          if (job.getStatus() != null && job.getStatus().getCompletionTime() != null
              && finished.put(job.getMetadata().getUid(), job) == null) {
            keepLog(client, job, logs);
          }
        }

        @Override
        public void onClose(WatcherException cause) {}
      });
    }

    int created() {
      return uids.size();
    }

    private static void keepLog(KubernetesClient client, Job job, Path logs) {
      String name = job.getMetadata().getName();
      try {
        for (var pod : client.pods().inNamespace(NAMESPACE).withLabel("job-name", name).list().getItems()) {
          Files.writeString(logs.resolve(name + ".log"), client.pods().inNamespace(NAMESPACE)
              .withName(pod.getMetadata().getName()).usingTimestamps().getLog());
        }
      } catch (Exception e) {
        System.err.println("no log of build Job " + name + ": " + e.getMessage());
      }
    }

    /** How long each finished build Job of a Function ran, oldest first. */
    double[] durations(String prefix) {
      return finished.values().stream()
          .filter(j -> j.getMetadata().getName().startsWith(prefix) && j.getStatus().getStartTime() != null)
          .sorted((a, b) -> a.getStatus().getStartTime().compareTo(b.getStatus().getStartTime()))
          .mapToDouble(j -> Duration.between(Instant.parse(j.getStatus().getStartTime()),
              Instant.parse(j.getStatus().getCompletionTime())).toMillis())
          .toArray();
    }

    @Override
    public void close() {
      watch.close();
    }
  }

  static double slowest(List<ChangeTimeline.Steps> changes) {
    return changes.stream().mapToDouble(s -> s.millis(s.pushed(), s.answering())).max().orElse(Double.NaN);
  }

  static double p50(List<ChangeTimeline.Steps> changes, ToDoubleFunction<ChangeTimeline.Steps> step) {
    return percentile(changes.stream().mapToDouble(step).filter(v -> !Double.isNaN(v)).toArray(), 50);
  }
}
