package io.gitfn.bench;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * gitfn on a real node, as a team uses it: an infra repository in Gitea followed by a FunctionRepository (hourly
 * polling, so only the webhook brings a push), real build Jobs (buildah in Pods, packages from the mirrors on the
 * host), images in the node's registry, and {@value #CLIENTS} clients calling a Function's Service without a pause:
 *
 * <ol>
 *   <li>a Python and a Node.js Function are built once on a fresh node and once more with a changed handler: the
 *       build Job's own time, cold and warm;
 *   <li>{@value #PUSHES} pushes of a handler change: push → the new version answers through the Service;
 *   <li>{@value #REVERTS} reverts (each of the commit before it): push → the earlier version answers;
 *   <li>every request of those changes that did not get a 200.
 * </ol>
 */
final class RealNodeBenchmark implements Benchmark {

  private static final int PUSHES = 10;
  private static final int REVERTS = 3;
  private static final int CLIENTS = 4;
  private static final Duration BUILD_AND_ROLL_OUT = Duration.ofMinutes(6);
  private static final String NAMESPACE = "bench";

  static final Row PUSH_P50 = Row.millis("push → new version answering through the Service, p50 (" + PUSHES
      + " pushes, build included)", Target.atMost(30_000));
  static final Row PUSH_SLOWEST = Row.millis("push → new version answering, slowest of " + PUSHES);
  static final Row REVERT_P50 = Row.millis("revert pushed → earlier version answering, p50 (" + REVERTS + " reverts)",
      Target.atMost(5_000));
  static final Row REVERT_SLOWEST = Row.millis("revert pushed → earlier version answering, slowest of " + REVERTS);
  static final Row REVERT_BUILDS = Row.count("build Jobs the reverts created", Target.exactly(0));
  static final Row ANSWERED = Row.count("requests answered 200 during the pushes and reverts (" + CLIENTS
      + " clients, no pause)");
  static final Row FAILED = Row.count("failed requests during the pushes and reverts", Target.exactly(0));
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
    return "gitfn on a real node: build Jobs, " + PUSHES + " pushes and " + REVERTS + " reverts through Gitea's"
        + " webhook, under " + CLIENTS + " clients";
  }

  @Override
  public List<Row> rows() {
    return List.of(PUSH_P50, PUSH_SLOWEST, REVERT_P50, REVERT_SLOWEST, REVERT_BUILDS, ANSWERED, FAILED, NODE_COLD,
        NODE_WARM, PYTHON_COLD, PYTHON_WARM);
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
      BuildJobs builds = new BuildJobs(client);
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
      double[] pushes = new double[PUSHES];
      double[] reverts = new double[REVERTS];
      int buildsBeforeReverts;
      try (ServiceLoad load = ServiceLoad.start(service, CLIENTS)) {
        for (int i = 1; i <= PUSHES; i++) {
          String answer = "hello v" + i;
          copy.write("functions/hello.yaml", node("hello", "v" + i)).commit("hello v" + i);
          pushes[i - 1] = timed(() -> copy.push("HEAD:refs/heads/main"), () -> load.lastAnswer().equals(answer));
        }
        buildsBeforeReverts = builds.created();
        for (int i = 0; i < REVERTS; i++) {
          // Each revert undoes the commit before it: v10 → v9 → v10 → v9, every image built already.
          String answer = i % 2 == 0 ? "hello v" + (PUSHES - 1) : "hello v" + PUSHES;
          copy.git("revert", "--no-edit", "HEAD");
          reverts[i] = timed(() -> copy.push("HEAD:refs/heads/main"), () -> load.lastAnswer().equals(answer));
        }
        load.stopAfterAnswers(50);
        metrics.add(PUSH_P50.value(percentile(pushes, 50)));
        metrics.add(PUSH_SLOWEST.value(max(pushes)));
        metrics.add(REVERT_P50.value(percentile(reverts, 50)));
        metrics.add(REVERT_SLOWEST.value(max(reverts)));
        metrics.add(REVERT_BUILDS.value(builds.created() - buildsBeforeReverts));
        metrics.add(ANSWERED.value(load.requests() - load.failures().size()));
        metrics.add(FAILED.value(load.failures().size()));
        if (!load.failures().isEmpty()) {
          System.err.println("failed requests: " + load.failures());
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

  private static WorkingCopy infraRepository(KubernetesClient client, GiteaServer gitea, NodeGitfn gitfn, Path home)
      throws Exception {
    String cloneUrl = gitea.createRepository("infra");
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("git").endMetadata()
        .withStringData(Map.of("username", gitea.admin().username(), "password", gitea.admin().password()))
        .build()).create();
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

  private static void awaitAnswer(KubernetesClient client, String name, String expected) throws Exception {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (System.nanoTime() < deadline) {
      var service = client.services().inNamespace(NAMESPACE).withName(name).get();
      if (service != null && expected.equals(get(URI.create("http://" + service.getSpec().getClusterIP() + "/")))) {
        return;
      }
      Thread.sleep(500);
    }
    Function fn = client.resources(Function.class).inNamespace(NAMESPACE).withName(name).get();
    throw new IllegalStateException(name + " did not answer `" + expected + "` within " + BUILD_AND_ROLL_OUT
        + "; its status: " + (fn == null ? "no Function" : client.getKubernetesSerialization().asJson(fn.getStatus())));
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The body of a 200 answer, or null for anything else. */
  private static String get(URI url) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).GET()
          .build(), HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (java.io.IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Milliseconds from the push (started by {@code push}) until {@code done}. */
  private static double timed(Pusher push, Supplier<Boolean> done) throws Exception {
    long started = System.nanoTime();
    push.push();
    long deadline = started + BUILD_AND_ROLL_OUT.toNanos();
    while (!done.get()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the change did not answer within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(20);
    }
    return (System.nanoTime() - started) / 1e6;
  }

  private interface Pusher {
    void push() throws Exception;
  }

  /** Every build Job of the namespace, seen as it runs: the controller deletes earlier keys' Jobs afterwards. */
  private static final class BuildJobs implements AutoCloseable {
    private final Map<String, Job> finished = new ConcurrentHashMap<>();
    private final Set<String> uids = ConcurrentHashMap.newKeySet();
    private final Watch watch;

    BuildJobs(KubernetesClient client) {
      watch = client.batch().v1().jobs().inNamespace(NAMESPACE).withLabel(Labels.CONTENT_KEY).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Job job) {
          uids.add(job.getMetadata().getUid());
          if (job.getStatus() != null && job.getStatus().getCompletionTime() != null) {
            finished.put(job.getMetadata().getUid(), job);
          }
        }

        @Override
        public void onClose(WatcherException cause) {}
      });
    }

    int created() {
      return uids.size();
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

  private static double max(double[] values) {
    return Arrays.stream(values).max().orElse(Double.NaN);
  }

  private static double percentile(double[] values, int p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
