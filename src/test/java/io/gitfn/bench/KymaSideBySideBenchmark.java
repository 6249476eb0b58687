package io.gitfn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KymaServerless;
import io.gitfn.testbed.NodeImages;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.packages.PackageMirrors;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.RealNode;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * gitfn's image mode and Kyma's own buildless controller, one after the other on the same real node, given the same
 * Functions and the same changes: each change is the same server-side apply of a Function (what {@code kubectl apply
 * --server-side} sends), timed until a new connection to the Function's Service gets the new answer. A handler-only
 * change, a dependency change (one npm package added) and a change back to an earlier spec (a revert), then each
 * controller's resident memory with 100 Functions running.
 *
 * <p>Kyma's controller and its {@code nodejs24} runtime image are built from a checkout of kyma-project/serverless
 * given as {@code -Dkyma.source=DIR} ({@link KymaServerless}); its runtime image runs on the test bed's
 * {@code nodejs24} base instead of node:24-alpine, so that both controllers' Pods start the same Node.js. Both read
 * packages from the test bed's mirrors on the node's host. Both get Functions with the same resources: a small CPU
 * request and the node's two cores as the limit, so that Kyma's install at Pod start is not throttled by its default
 * preset's limit of 800m.
 */
final class KymaSideBySideBenchmark implements Benchmark {

  private static final int HANDLER_CHANGES = 5;
  private static final int DEPENDENCY_CHANGES = 3;
  private static final int REVERTS = 3;
  private static final int FUNCTIONS = 100;
  private static final int FUNCTION_BATCH = 20;
  private static final Duration STEP = RealNodeChanges.BUILD_AND_ROLL_OUT;
  /** Packages the test bed's npm mirror serves that have no dependencies of their own. */
  private static final List<String> NPM = List.of("escape-html@1.0.3", "etag@1.8.1", "fresh@2.0.0");

  static final Row GITFN_HANDLER = Row.millis("gitfn (image): handler-only change → new version answering, p50 ("
      + HANDLER_CHANGES + " changes)");
  static final Row KYMA_HANDLER = Row.millis("Kyma (buildless): handler-only change → new version answering, p50");
  static final Row HANDLER_RATIO = Row.of("handler-only change: Kyma's time / gitfn's time", "×",
      Target.atLeast(1.0));
  static final Row GITFN_DEPENDENCY = Row.millis("gitfn (image): dependency change → answering, p50 ("
      + DEPENDENCY_CHANGES + " changes)");
  static final Row KYMA_DEPENDENCY = Row.millis("Kyma (buildless): dependency change → answering, p50");
  static final Row DEPENDENCY_RATIO = Row.of("dependency change: Kyma's time / gitfn's time", "×",
      Target.atLeast(1.0));
  static final Row GITFN_REVERT = Row.millis("gitfn (image): change back to an earlier spec → answering, p50 ("
      + REVERTS + " reverts)");
  static final Row KYMA_REVERT = Row.millis("Kyma (buildless): change back to an earlier spec → answering, p50");
  static final Row REVERT_RATIO = Row.of("revert: Kyma's time / gitfn's time", "×", Target.atLeast(1.0));
  static final Row GITFN_FIRST = Row.millis("gitfn (image): new Function with a dependency → answering");
  static final Row KYMA_FIRST = Row.millis("Kyma (buildless): new Function with a dependency → answering");
  static final Row GITFN_RSS = Row.of("gitfn controller's RSS with " + FUNCTIONS + " Functions running", "MiB", null);
  static final Row KYMA_RSS = Row.of("Kyma controller's RSS with " + FUNCTIONS + " Functions running", "MiB", null);
  static final Row GITFN_ALL = Row.millis("gitfn (image): " + FUNCTIONS + " new Functions (batches of "
      + FUNCTION_BATCH + ") → all answering");
  static final Row KYMA_ALL = Row.millis("Kyma (buildless): " + FUNCTIONS + " new Functions (batches of "
      + FUNCTION_BATCH + ") → all answering");

  @Override
  public String name() {
    return "kyma-side-by-side";
  }

  @Override
  public String description() {
    return "gitfn's image mode and Kyma's buildless controller on the same real node, one after the other: the same"
        + " Function applied and changed (handler, dependency, back), and each controller's RSS with " + FUNCTIONS
        + " Functions";
  }

  @Override
  public List<Row> rows() {
    return List.of(GITFN_HANDLER, KYMA_HANDLER, HANDLER_RATIO, GITFN_DEPENDENCY, KYMA_DEPENDENCY, DEPENDENCY_RATIO,
        GITFN_REVERT, KYMA_REVERT, REVERT_RATIO, GITFN_FIRST, KYMA_FIRST, GITFN_ALL, KYMA_ALL, GITFN_RSS, KYMA_RSS);
  }

  @Override
  public List<Metric> run() throws Exception {
    String source = System.getProperty("kyma.source", "");
    if (source.isBlank()) {
      throw new IllegalStateException("-Dkyma.source=DIR is missing: a checkout of github.com/kyma-project/serverless"
          + " (its components/buildless-serverless and components/runtimes), from which Kyma's controller and its"
          + " nodejs24 runtime image are built (docs/benchmarks.md#kyma-side-by-side)");
    }
    KymaServerless kyma = KymaServerless.build(Path.of(source));
    System.out.println("Kyma serverless " + kyma.commit() + ": " + kyma.manager());
    // A folder per run: the controllers' logs are appended to, and a start reads its log for its ready line.
    Path dir = Files.createTempDirectory(Files.createDirectories(
        TestBedBinaries.projectDir().resolve("target/bench/kyma-side-by-side")), "run-");
    RealNode node = RealNode.shared();
    try {
      NodeImages images = NodeImages.build();
      for (String runtime : List.of("nodejs22", "nodejs24", "python312")) {
        node.pushImage(images.archive(runtime), images.reference(runtime));
      }
      node.pushImage(TestBedBinaries.controllerImage(), "gitfn/packer:test");
      node.pushImage(kyma.archive("nodejs24"), kyma.reference("nodejs24"));
      node.installCrds();
      String registry = node.registry();
      try (PackageMirrors mirrors = PackageMirrors.start(images.packages(),
              InetAddress.getByName(node.hostAddress()));
          KubernetesClient client = node.newClient()) {
        List<String> gitfnFlags = List.of("--registry", registry, "--insecure-registry", registry,
            "--builder-image", registry + "/gitfn/packer:test",
            "--base-image", "nodejs22=" + registry + "/" + images.reference("nodejs22"),
            "--base-image", "nodejs24=" + registry + "/" + images.reference("nodejs24"),
            "--base-image", "python312=" + registry + "/" + images.reference("python312"),
            "--package-registry-secret", NodeGitfn.PACKAGE_REGISTRY_SECRET);
        Side gitfn = side(client, "gitfn", namespace -> NodeGitfn.createBuildSecrets(client, namespace, mirrors),
            () -> {
              ControllerProcess process = ControllerProcess.start(
                  TestBedBinaries.projectDir().resolve("target/gitfn.jar"), node.kubeconfig(),
                  Files.createDirectories(dir.resolve("gitfn-mirrors")), dir.resolve("gitfn-controller.log"),
                  Duration.ofMinutes(2), ControllerProcess.JVM_FLAGS, gitfnFlags);
              return new Running(process.pid(), process);
            });
        Side kymaSide = side(client, "kyma", namespace -> client.secrets().inNamespace(namespace).resource(
                new SecretBuilder().withNewMetadata().withName(KymaController.PACKAGE_REGISTRY_SECRET).endMetadata()
                    .withStringData(Map.of(".npmrc", mirrors.npmrc(), "pip.conf", mirrors.pipConf())).build())
                .create(),
            () -> {
              KymaController process = KymaController.start(kyma.manager(), kyma.managerEnv(), node.kubeconfig(),
                  registry + "/" + kyma.reference("nodejs24"), dir.resolve("kyma"), Duration.ofMinutes(2));
              return new Running(process.pid(), process);
            });
        return List.of(
            GITFN_HANDLER.value(gitfn.handler()), KYMA_HANDLER.value(kymaSide.handler()),
            HANDLER_RATIO.value(kymaSide.handler() / gitfn.handler()),
            GITFN_DEPENDENCY.value(gitfn.dependency()), KYMA_DEPENDENCY.value(kymaSide.dependency()),
            DEPENDENCY_RATIO.value(kymaSide.dependency() / gitfn.dependency()),
            GITFN_REVERT.value(gitfn.revert()), KYMA_REVERT.value(kymaSide.revert()),
            REVERT_RATIO.value(kymaSide.revert() / gitfn.revert()),
            GITFN_FIRST.value(gitfn.first()), KYMA_FIRST.value(kymaSide.first()),
            GITFN_ALL.value(gitfn.all()), KYMA_ALL.value(kymaSide.all()),
            GITFN_RSS.value(gitfn.rssMib()), KYMA_RSS.value(kymaSide.rssMib()));
      }
    } finally {
      RealNode.stopShared();
    }
  }

  /** One controller's figures: p50s of each kind of change, in milliseconds, and its RSS with the Functions. */
  private record Side(double first, double handler, double dependency, double revert, double all, double rssMib) {}

  /** A started controller: its process id, to read its memory, and how to stop it. */
  private record Running(long pid, AutoCloseable process) {}

  private interface Starter {
    Running start() throws Exception;
  }

  private interface Preparer {
    void prepare(String namespace) throws Exception;
  }

  /** The same changes and Functions for one controller, in a namespace of its own that enforces restricted. */
  private static Side side(KubernetesClient client, String controller, Preparer prepare, Starter start)
      throws Exception {
    String namespace = "side-" + controller;
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
    client.serviceAccounts().inNamespace(namespace).withName("default")
        .waitUntilCondition(Objects::nonNull, 60, TimeUnit.SECONDS);
    prepare.prepare(namespace);
    System.out.println("== " + controller);
    Running running = start.start();
    try (AutoCloseable process = running.process();
        DeploymentUpdates updates = new DeploymentUpdates(client, namespace, "hello")) {
      Changes changes = new Changes(client, namespace, updates);
      double first = changes.apply("first deploy of hello v0", hello(namespace, "v0", 0), "hello v0");

      List<Double> handler = new ArrayList<>();
      for (int v = 1; v <= HANDLER_CHANGES; v++) {
        handler.add(changes.apply("handler-only change to v" + v, hello(namespace, "v" + v, 0), "hello v" + v));
      }
      List<Double> dependency = new ArrayList<>();
      List<Function> applied = new ArrayList<>();
      for (int i = 1; i <= DEPENDENCY_CHANGES; i++) {
        int v = HANDLER_CHANGES + i;
        Function fn = hello(namespace, "v" + v, i);
        applied.add(fn);
        dependency.add(changes.apply("dependency change to v" + v + " +" + i, fn, "hello v" + v + " +" + i));
      }
      List<Double> reverts = new ArrayList<>();
      for (int i = 0; i < REVERTS; i++) {
        // Back to the spec before the last, then forward again: each is a spec this controller ran before.
        int index = i % 2 == 0 ? DEPENDENCY_CHANGES - 2 : DEPENDENCY_CHANGES - 1;
        int v = HANDLER_CHANGES + index + 1;
        reverts.add(changes.apply("revert to v" + v, applied.get(index), "hello v" + v + " +" + (index + 1)));
      }

      long started = System.nanoTime();
      for (int batch = 0; batch * FUNCTION_BATCH < FUNCTIONS; batch++) {
        List<String> names = new ArrayList<>();
        long batchApplied = System.nanoTime();
        for (int i = batch * FUNCTION_BATCH; i < Math.min(FUNCTIONS, (batch + 1) * FUNCTION_BATCH); i++) {
          String name = String.format("f%03d", i);
          names.add(name);
          apply(client, function(namespace, name, name + " up", List.of()));
        }
        long deployed = awaitDeployments(client, namespace, names);
        for (String name : names) {
          RealNodeChanges.awaitAnswer(client, namespace, name, name + " up");
        }
        System.out.println("  " + (batch + 1) * FUNCTION_BATCH + " Functions answering after "
            + (System.nanoTime() - started) / 1_000_000 + " ms (this batch: applied → every Deployment made "
            + (deployed - batchApplied) / 1_000_000 + " ms, → every Function answering "
            + (System.nanoTime() - batchApplied) / 1_000_000 + " ms)");
      }
      double all = (System.nanoTime() - started) / 1e6;
      Thread.sleep(10_000); // past the burst: what the controller keeps, not what it allocated on the way
      double rssMib = ControllerProcess.memoryKib(running.pid()).get("VmRSS") / 1024.0;
      System.out.printf("  %s controller RSS with %d Functions: %.1f MiB%n", controller, FUNCTIONS, rssMib);
      client.resources(Function.class).inNamespace(namespace).delete();
      awaitNoPods(client, namespace);
      return new Side(first, p50(handler), p50(dependency), p50(reverts), all, rssMib);
    } finally {
      client.namespaces().withName(namespace).delete();
      client.namespaces().withName(namespace).waitUntilCondition(Objects::isNull, 5, TimeUnit.MINUTES);
    }
  }

  /**
   * When every Function of {@code names} has a Deployment: the controller's share of a new Function's time, the rest
   * being the node's (the Pod's start, its image's pull, the runtime's start).
   */
  private static long awaitDeployments(KubernetesClient client, String namespace, List<String> names)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline) {
      long made = client.apps().deployments().inNamespace(namespace).list().getItems().stream()
          .map(d -> d.getMetadata().getLabels() == null ? null
              : d.getMetadata().getLabels().get(RealNodeChanges.FUNCTION_LABEL))
          .filter(names::contains).distinct().count();
      if (made == names.size()) {
        return System.nanoTime();
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("not every Function of " + names + " has a Deployment after 5 minutes");
  }

  private static double p50(List<Double> millis) {
    return ControllerBenchmark.percentile(millis.stream().mapToDouble(Double::doubleValue).toArray(), 50);
  }

  /** hello with {@code ms} and the first {@code packages} of {@link #NPM}, whose count its answer says. */
  private static Function hello(String namespace, String version, int packages) {
    String answer = "hello " + version + (packages == 0 ? "" : " +" + packages);
    return function(namespace, "hello", answer, NPM.subList(0, packages));
  }

  /**
   * A nodejs24 Function that answers {@code answer} and depends on {@code ms} and {@code packages}, written as Kyma's
   * tutorials write it ({@code main: function}): Kyma's nodejs24 runtime loads a handler with {@code import()}, and
   * Node.js finds no export {@code main} in {@code module.exports = { main: () => ... }}. It has a small
   * CPU request, so that a hundred fit on the node's two cores, and a CPU limit of the node's two cores (Kyma refuses
   * a Function without a CPU limit above its request), so that neither controller's Pods are throttled.
   */
  private static Function function(String namespace, String name, String answer, List<String> packages) {
    StringBuilder dependencies = new StringBuilder("\"ms\": \"2.1.3\"");
    for (String spec : packages) {
      String[] parts = spec.split("@");
      dependencies.append(", \"").append(parts[0]).append("\": \"").append(parts[1]).append('"');
    }
    return TestFunction.inline().named(name).inNamespace(namespace).uid(null).runtime(FunctionRuntime.NODEJS24)
        .code("const ms = require('ms');\nmodule.exports = { main: function (event, context) { return '" + answer
            + "'; } };\n")
        .dependencies("{\"name\": \"" + name + "\", \"version\": \"1.0.0\", \"dependencies\": {" + dependencies
            + "}}")
        .resources(new ResourceRequirementsBuilder()
            .addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("64Mi"))
            .addToLimits("cpu", new Quantity("2")).addToLimits("memory", new Quantity("512Mi")).build())
        .build();
  }

  private static void apply(KubernetesClient client, Function fn) {
    client.resource(fn).fieldManager("kubectl").forceConflicts().serverSideApply();
  }

  private static void awaitNoPods(KubernetesClient client, String namespace) throws InterruptedException {
    long deadline = System.nanoTime() + STEP.toNanos();
    while (!client.pods().inNamespace(namespace).list().getItems().isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the Pods of " + namespace + " are not gone within " + STEP);
      }
      Thread.sleep(500);
    }
  }

  /** Applies a change to hello and times it: apply → Deployment updated → a new connection gets the answer. */
  private record Changes(KubernetesClient client, String namespace, DeploymentUpdates updates) {

    double apply(String change, Function fn, String expected) throws Exception {
      long generation = updates.generation();
      long started = System.nanoTime();
      KymaSideBySideBenchmark.apply(client, fn);
      URI service = null;
      long deadline = started + STEP.toNanos();
      long checked = started;
      while (service == null || !expected.equals(NewConnection.get(service))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(change + " in " + namespace + " did not answer `" + expected
              + "` within " + STEP + "; the Function's status: " + RealNodeChanges.status(client, namespace, "hello"));
        }
        Thread.sleep(20);
        service = service != null ? service : RealNodeChanges.serviceUri(client, namespace, "hello");
        if (System.nanoTime() - checked > 1_000_000_000L) {
          RealNodeChanges.refused(client, namespace, "hello");
          checked = System.nanoTime();
        }
      }
      long answering = System.nanoTime();
      long updated = updates.firstAfter(started, generation);
      double millis = (answering - started) / 1e6;
      System.out.printf("  %s: %d ms (apply → Deployment updated %s, → answering %d ms)%n", change, (long) millis,
          updated < 0 ? "(not seen)" : (updated - started) / 1_000_000 + " ms", (answering - started) / 1_000_000);
      RealNodeChanges.settle(client, namespace, "hello", expected);
      return millis;
    }
  }

  /**
   * When each of a Function's Deployments reached each generation, as a watch sees it: Kyma names its Deployment
   * {@code <function>-<random>}, so it is found by the Function's label, not its name.
   */
  private static final class DeploymentUpdates implements AutoCloseable {

    private record Seen(long nanos, long generation) {}

    private final Queue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final Watch watch;

    DeploymentUpdates(KubernetesClient client, String namespace, String function) {
      watch = client.apps().deployments().inNamespace(namespace)
          .withLabel(RealNodeChanges.FUNCTION_LABEL, function).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Deployment deployment) {
          Long generation = deployment.getMetadata().getGeneration();
          seen.add(new Seen(System.nanoTime(), generation == null ? 0 : generation));
        }

        @Override
        public void onClose(WatcherException cause) {}
      });
    }

    /** The highest generation seen so far, 0 before the Deployment exists. */
    long generation() {
      return seen.stream().mapToLong(Seen::generation).max().orElse(0);
    }

    /** When a generation above {@code generation} was first seen after {@code started}, or -1. */
    long firstAfter(long started, long generation) {
      return seen.stream().filter(s -> s.nanos() >= started && s.generation() > generation)
          .mapToLong(Seen::nanos).min().orElse(-1);
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
