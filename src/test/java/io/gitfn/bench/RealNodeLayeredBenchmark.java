package io.gitfn.bench;

import static io.gitfn.bench.RealNodeChanges.BUILD_AND_ROLL_OUT;
import static io.gitfn.bench.RealNodeChanges.NAMESPACE;
import static io.gitfn.bench.RealNodeChanges.awaitAnswer;
import static io.gitfn.bench.RealNodeChanges.p50;
import static io.gitfn.bench.RealNodeChanges.settle;
import static io.gitfn.bench.RealNodeChanges.slowest;
import static io.gitfn.bench.RealNodeChanges.timed;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.WorkingCopy;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.ServiceLoad;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code realnode} benchmark's changes with the layered builder ({@code --builder layered}), in a namespace that
 * enforces Pod Security {@code restricted}: handler-only pushes (the controller pushes a source layer, no Pod
 * builds), dependency changes (an install Job with no privilege), reverts, and first builds of new Functions, each
 * timed from {@code git push} through Gitea's webhook until a new connection to the Service gets the new answer; the
 * same under {@value #CLIENTS} clients with no pause, counting every failed request.
 */
final class RealNodeLayeredBenchmark implements Benchmark {

  private static final int PUSHES = 10;
  private static final int REVERTS = 3;
  private static final int DEPENDENCY_CHANGES = 3;
  private static final int CLIENTS = 4;
  /** Packages the test bed's npm mirror serves that have no dependencies of their own. */
  private static final List<String> NPM = List.of("escape-html@1.0.3", "etag@1.8.1", "fresh@2.0.0", "vary@1.1.2",
      "ee-first@1.1.1", "unpipe@1.0.0", "toidentifier@1.0.1", "wrappy@1.0.2");

  /** One each for the new Functions' first builds: with ms alone, no prefix of {@link #NPM} has them. */
  private static final List<String> NEW_FUNCTION_PACKAGES = List.of("wrappy@1.0.2", "toidentifier@1.0.1",
      "etag@1.8.1");

  static final Row HANDLER_P50 = Row.millis("handler-only push → new version answering a new connection, p50 ("
      + PUSHES + " pushes)", Target.atMost(5_000));
  static final Row HANDLER_APPLIED = Row.millis("  push → revision applied (webhook, fetch, apply), p50");
  static final Row HANDLER_PUSHED = Row.millis("  push → image pushed and Deployment updated, p50");
  static final Row HANDLER_IMAGE = Row.millis("  revision applied → image pushed and Deployment updated, p50",
      Target.atMost(1_000));
  static final Row HANDLER_ANSWER = Row.millis("  Deployment updated → new version answering, p50");
  static final Row HANDLER_SLOWEST = Row.millis("handler-only push → answering, slowest of " + PUSHES);
  static final Row HANDLER_JOBS = Row.count("Jobs (so build Pods) the handler-only pushes created (" + 2 * PUSHES
      + " pushes)", Target.exactly(0));
  static final Row HANDLER_BYTES = Row.of("bytes uploaded for a handler-only change, largest", "bytes",
      Target.atMost(64 * 1024));
  static final Row DEPENDENCY_P50 = Row.millis("dependency change (one npm package added) → answering, p50 ("
      + DEPENDENCY_CHANGES + " changes)", Target.atMost(12_000));
  static final Row DEPENDENCY_JOB = Row.millis("  install Job created → its Pod's pack container ended, p50");
  static final Row FIRST_BUILD_P50 = Row.millis("first build of a new Function with a dependency → answering, p50 ("
      + DEPENDENCY_CHANGES + " Functions)", Target.atMost(12_000));
  static final Row PYTHON_DEPENDENCY = Row.millis("Python Function, dependency change (one pip package added) →"
      + " answering", Target.atMost(12_000));
  static final Row REVERT_P50 = Row.millis("revert pushed → earlier version answering a new connection, p50 ("
      + REVERTS + " reverts)", Target.atMost(3_000));
  static final Row REVERT_DEPLOYMENT = Row.millis("  revert pushed → Deployment updated, p50");
  static final Row REVERT_JOBS = Row.count("Jobs the reverts created (" + 2 * REVERTS + " reverts)",
      Target.exactly(0));
  static final Row LOADED_HANDLER_P50 = Row.millis("under " + CLIENTS + " clients with no pause: handler-only push →"
      + " the clients' kept-open connections on the new version, p50");
  static final Row ANSWERED = Row.count("requests answered 200 under " + CLIENTS + " clients with no pause");
  static final Row FAILED = Row.count("failed requests under " + CLIENTS + " clients with no pause (handler-only"
      + " pushes, a dependency change, reverts)", Target.exactly(0));
  static final Row SAME_DIGEST = Row.count("the same Function in a second namespace: the same image digest (1 = yes)",
      Target.exactly(1));

  @Override
  public String name() {
    return "realnode-layered";
  }

  @Override
  public String description() {
    return "gitfn on a real node with the layered builder, in a namespace that enforces restricted: handler-only"
        + " pushes, dependency changes, reverts and first builds through Gitea's webhook, quiet and under "
        + CLIENTS + " clients";
  }

  @Override
  public List<Row> rows() {
    return List.of(HANDLER_P50, HANDLER_APPLIED, HANDLER_PUSHED, HANDLER_IMAGE, HANDLER_ANSWER, HANDLER_SLOWEST,
        DEPENDENCY_P50, DEPENDENCY_JOB, REVERT_P50, REVERT_DEPLOYMENT, LOADED_HANDLER_P50, HANDLER_JOBS,
        HANDLER_BYTES, REVERT_JOBS, ANSWERED, FAILED, FIRST_BUILD_P50, PYTHON_DEPENDENCY, SAME_DIGEST);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path dir = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/realnode-runs"));
    RealNode node = RealNode.shared();
    List<Metric> metrics = new ArrayList<>();
    try (NodeGitfn gitfn = NodeGitfn.start(node);
        KubernetesClient client = node.newClient();
        GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(dir, "gitea-"));
        Watch installLogs = keepInstallLogs(client, dir)) {
      for (String namespace : List.of(NAMESPACE, NAMESPACE + "-twin")) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
            .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
        client.serviceAccounts().inNamespace(namespace).withName("default")
            .waitUntilCondition(Objects::nonNull, 60, TimeUnit.SECONDS);
        gitfn.prepare(client, namespace);
      }
      WorkingCopy copy = RealNodeChanges.infraRepository(client, gitea, gitfn,
          Files.createTempDirectory(dir, "home-"));

      copy.write("functions/py.yaml", python("py", "1", false)).write("functions/hello.yaml", node("hello", "v0", 0))
          .commit("py and hello");
      copy.push("HEAD:refs/heads/main");
      awaitAnswer(client, "py", "py 1");
      awaitAnswer(client, "hello", "hello v0");

      try (ChangeTimeline timeline = new ChangeTimeline(client, NAMESPACE, "infra", "hello")) {
        URI service = URI.create("http://" + client.services().inNamespace(NAMESPACE).withName("hello").get()
            .getSpec().getClusterIP() + "/");
        Round quiet = round(client, copy, timeline, () -> NewConnection.get(service), 0, 0);
        metrics.add(HANDLER_P50.value(p50(quiet.pushes(), s -> s.millis(s.pushed(), s.answering()))));
        metrics.add(HANDLER_APPLIED.value(p50(quiet.pushes(), s -> s.millis(s.pushed(), s.applied()))));
        metrics.add(HANDLER_PUSHED.value(p50(quiet.pushes(), s -> s.millis(s.pushed(), s.deploymentUpdated()))));
        metrics.add(HANDLER_IMAGE.value(p50(quiet.pushes(), s -> s.millis(s.applied(), s.deploymentUpdated()))));
        metrics.add(HANDLER_ANSWER.value(p50(quiet.pushes(), s -> s.millis(s.deploymentUpdated(), s.answering()))));
        metrics.add(HANDLER_SLOWEST.value(slowest(quiet.pushes())));
        metrics.add(DEPENDENCY_P50.value(p50(quiet.dependencies(), s -> s.millis(s.pushed(), s.answering()))));
        metrics.add(DEPENDENCY_JOB.value(p50(quiet.dependencies(), s -> s.millis(s.jobCreated(), s.packed()))));
        metrics.add(REVERT_P50.value(p50(quiet.reverts(), s -> s.millis(s.pushed(), s.answering()))));
        metrics.add(REVERT_DEPLOYMENT.value(p50(quiet.reverts(), s -> s.millis(s.pushed(), s.deploymentUpdated()))));

        try (ServiceLoad load = ServiceLoad.start(service, CLIENTS)) {
          Round loaded = round(client, copy, timeline, load::lastAnswer, quiet.version(), DEPENDENCY_CHANGES);
          load.stopAfterAnswers(50);
          metrics.add(LOADED_HANDLER_P50.value(p50(loaded.pushes(), s -> s.millis(s.pushed(), s.answering()))));
          metrics.add(HANDLER_JOBS.value(quiet.pushJobs() + loaded.pushJobs()));
          metrics.add(HANDLER_BYTES.value(Math.max(quiet.largestUpload(), loaded.largestUpload())));
          metrics.add(REVERT_JOBS.value(quiet.revertJobs() + loaded.revertJobs()));
          metrics.add(ANSWERED.value(load.requests() - load.failures().size()));
          metrics.add(FAILED.value(load.failures().size()));
          if (!load.failures().isEmpty()) {
            System.err.println("failed requests: " + load.failures());
          }
        }
      }

      List<Double> firstBuilds = new ArrayList<>();
      for (int i = 0; i < DEPENDENCY_CHANGES; i++) {
        String name = "new" + i;
        // Dependencies no Function had before (hello's are ms and a prefix of NPM): an install Job runs.
        copy.write("functions/" + name + ".yaml", node(name, "v1", List.of(NEW_FUNCTION_PACKAGES.get(i))))
            .commit("new Function " + name);
        long pushed = System.nanoTime();
        copy.push("HEAD:refs/heads/main");
        awaitAnswer(client, name, name + " v1");
        firstBuilds.add((System.nanoTime() - pushed) / 1e6);
        System.out.println("  first build of " + name + ": " + firstBuilds.get(i).longValue() + " ms");
        // The node has two cores: each Function's Pod takes its request, and the next install Job needs room.
        copy.git("rm", "-q", "functions/" + name + ".yaml");
        copy.commit("remove " + name);
        copy.push("HEAD:refs/heads/main");
        awaitGone(client, name);
      }
      metrics.add(FIRST_BUILD_P50.value(ControllerBenchmark.percentile(
          firstBuilds.stream().mapToDouble(Double::doubleValue).toArray(), 50)));

      copy.write("functions/py.yaml", python("py", "2", true)).commit("py needs more-itertools");
      URI py = URI.create("http://" + client.services().inNamespace(NAMESPACE).withName("py").get().getSpec()
          .getClusterIP() + "/");
      try (ChangeTimeline timeline = new ChangeTimeline(client, NAMESPACE, "infra", "py")) {
        ChangeTimeline.Steps change = timed(timeline, "Python dependency change",
            () -> copy.push("HEAD:refs/heads/main"), () -> "py 2 [1, 2]".equals(NewConnection.get(py)));
        metrics.add(PYTHON_DEPENDENCY.value(change.millis(change.pushed(), change.answering())));
      }

      metrics.add(SAME_DIGEST.value(sameDigestElsewhere(client) ? 1 : 0));
    } finally {
      RealNode.stopShared();
    }
    return metrics;
  }

  /** The pushes, dependency changes and reverts of one round, and the Jobs its handler pushes and reverts made. */
  private record Round(List<ChangeTimeline.Steps> pushes, List<ChangeTimeline.Steps> dependencies,
      List<ChangeTimeline.Steps> reverts, int pushJobs, int revertJobs, long largestUpload, int version) {}

  /**
   * {@value #PUSHES} handler-only pushes after {@code version}, {@value #DEPENDENCY_CHANGES} pushes that each add
   * one npm package (starting at {@code packages}), then {@value #REVERTS} reverts, each of the commit before it;
   * each timed until {@code answer} says it.
   */
  private static Round round(KubernetesClient client, WorkingCopy copy, ChangeTimeline timeline,
      Supplier<String> answer, int version, int packages) throws Exception {
    List<ChangeTimeline.Steps> pushes = new ArrayList<>();
    int jobsBefore = timeline.jobsCreated();
    for (int i = 1; i <= PUSHES; i++) {
      int v = version + i;
      copy.write("functions/hello.yaml", node("hello", "v" + v, 0)).commit("hello v" + v);
      pushes.add(timed(timeline, "handler-only push of v" + v, () -> copy.push("HEAD:refs/heads/main"),
          () -> ("hello v" + v).equals(answer.get())));
      settle(client, "hello v" + v);
    }
    int pushJobs = timeline.jobsCreated() - jobsBefore;
    List<ChangeTimeline.Steps> dependencies = new ArrayList<>();
    int last = version + PUSHES;
    for (int i = 1; i <= DEPENDENCY_CHANGES; i++) {
      int v = last + i;
      String expected = "hello v" + v + " +" + (packages + i);
      copy.write("functions/hello.yaml", node("hello", "v" + v, packages + i)).commit(expected);
      dependencies.add(timed(timeline, "dependency change of v" + v, () -> copy.push("HEAD:refs/heads/main"),
          () -> expected.equals(answer.get())));
      settle(client, expected);
    }
    last += DEPENDENCY_CHANGES;
    int revertsBefore = timeline.jobsCreated();
    List<ChangeTimeline.Steps> reverts = new ArrayList<>();
    for (int i = 0; i < REVERTS; i++) {
      int v = i % 2 == 0 ? last - 1 : last;
      String expected = "hello v" + v + " +" + (packages + v - version - PUSHES);
      copy.git("revert", "--no-edit", "HEAD");
      reverts.add(timed(timeline, "revert to v" + v, () -> copy.push("HEAD:refs/heads/main"),
          () -> expected.equals(answer.get())));
      settle(client, expected);
    }
    return new Round(pushes, dependencies, reverts, pushJobs, timeline.jobsCreated() - revertsBefore,
        largestUpload(client), last);
  }

  private static final Pattern UPLOADED = Pattern.compile("(\\d+) bytes uploaded");

  private static void awaitGone(KubernetesClient client, String name) throws InterruptedException {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (client.resources(Function.class).inNamespace(NAMESPACE).withName(name).get() != null
        || !client.pods().inNamespace(NAMESPACE).withLabel("serverless.kyma-project.io/function-name", name).list()
            .getItems().isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " and its Pods are not gone within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(500);
    }
  }

  /** The most bytes one push of hello uploaded, as the Events of its BuildReady say. */
  private static long largestUpload(KubernetesClient client) {
    return client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(e -> "hello".equals(e.getInvolvedObject().getName()) && "LayersReused".equals(e.getReason()))
        .map(e -> UPLOADED.matcher(e.getMessage())).filter(Matcher::find)
        .mapToLong(m -> Long.parseLong(m.group(1))).max().orElse(-1);
  }

  /**
   * Every install Job's two containers' logs, with the kubelet's timestamps, kept in the run directory as each Job
   * finishes: they say where an install's time went. The controller deletes a Job once its release rolls out.
   */
  private static Watch keepInstallLogs(KubernetesClient client, Path dir) {
    Set<String> kept = ConcurrentHashMap.newKeySet();
    return client.batch().v1().jobs().inAnyNamespace().watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Job job) {
        if (job.getStatus() == null || job.getStatus().getCompletionTime() == null
            || !kept.add(job.getMetadata().getUid())) {
          return;
        }
        String namespace = job.getMetadata().getNamespace();
        StringBuilder log = new StringBuilder();
        try {
          for (var pod : client.pods().inNamespace(namespace).withLabel("job-name", job.getMetadata().getName())
              .list().getItems()) {
            log.append("pod ").append(pod.getMetadata().getName()).append(" created ")
                .append(pod.getMetadata().getCreationTimestamp()).append('\n');
            pod.getStatus().getContainerStatuses().forEach(c -> log.append(c.getName()).append(' ')
                .append(c.getState()).append('\n'));
            for (String container : List.of("install", "pack")) {
              log.append("--- ").append(container).append('\n').append(client.pods().inNamespace(namespace)
                  .withName(pod.getMetadata().getName()).inContainer(container).usingTimestamps().getLog());
            }
          }
          Files.writeString(dir.resolve(namespace + "-" + job.getMetadata().getName() + ".log"), log);
        } catch (Exception e) {
          System.err.println("no log of install Job " + job.getMetadata().getName() + ": " + e.getMessage());
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    });
  }

  /** hello, as the infra repository holds it now, applied in the second namespace: the digest it runs there. */
  private static boolean sameDigestElsewhere(KubernetesClient client) throws Exception {
    Function here = client.resources(Function.class).inNamespace(NAMESPACE).withName("hello").get();
    Function twin = TestFunction.inline().named("hello").inNamespace(NAMESPACE + "-twin").uid(null)
        .runtime(here.getSpec().getRuntime())
        .code(here.getSpec().getSource().getInline().getSource())
        .dependencies(here.getSpec().getSource().getInline().getDependencies()).build();
    client.resource(twin).create();
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    String there = null;
    while (there == null || !there.contains("@sha256:")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("hello in " + NAMESPACE + "-twin has no image within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(500);
      Function fn = client.resources(Function.class).inNamespace(NAMESPACE + "-twin").withName("hello").get();
      there = fn.getStatus() == null || fn.getStatus().getHistory() == null || fn.getStatus().getHistory().isEmpty()
          ? null : fn.getStatus().getHistory().get(0).getImage();
    }
    String mine = here.getStatus().getHistory().get(0).getImage();
    System.out.println("  hello in two namespaces: " + mine + " and " + there);
    return digest(mine).equals(digest(there));
  }

  private static String digest(String image) {
    return image.substring(image.indexOf("@sha256:"));
  }

  /** hello with {@code ms} and the first {@code packages} of {@link #NPM}, whose count its answer says. */
  private static String node(String name, String version, int packages) {
    return node(name, version + (packages == 0 ? "" : " +" + packages), NPM.subList(0, packages));
  }

  /** A Node.js Function that answers {@code name answer} and depends on {@code ms} and {@code packages}. */
  private static String node(String name, String answer, List<String> packages) {
    StringBuilder dependencies = new StringBuilder("\"ms\": \"2.1.3\"");
    for (String spec : packages) {
      String[] parts = spec.split("@");
      dependencies.append(", \"").append(parts[0]).append("\": \"").append(parts[1]).append('"');
    }
    return TestFunction.declared(name)
        .code("const ms = require('ms');\nmodule.exports = { main: () => '" + name + " " + answer + "' };\n")
        .dependencies("{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"dependencies\": {" + dependencies
            + "}}")
        .toYaml();
  }

  private static String python(String name, String version, boolean moreItertools) {
    String code = moreItertools
        ? "import six\nimport more_itertools\n\ndef main(event, context):\n    return six.ensure_text('" + name + " "
            + version + " ' + str(list(more_itertools.take(2, [1, 2, 3]))))\n"
        : "import six\n\ndef main(event, context):\n    return six.ensure_text('" + name + " " + version + "')\n";
    return TestFunction.declared(name).runtime(FunctionRuntime.PYTHON312).code(code)
        .dependencies("six==1.17.0\n" + (moreItertools ? "more-itertools==11.2.1\n" : ""))
        .toYaml();
  }

}
