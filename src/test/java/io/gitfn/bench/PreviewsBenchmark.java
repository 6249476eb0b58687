package io.gitfn.bench;

import static io.gitfn.bench.RealNodeChanges.BUILD_AND_ROLL_OUT;
import static io.gitfn.bench.RealNodeChanges.awaitAnswer;
import static io.gitfn.bench.RealNodeChanges.p50;
import static io.gitfn.bench.RealNodeChanges.serviceUri;
import static io.gitfn.bench.RealNodeChanges.settle;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.PreviewedRepository;
import io.gitfn.testbed.realnode.PreviewedRepository.PullRequest;
import io.gitfn.testbed.realnode.RealNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Previews of pull requests on a real node (issue 32), with Gitea delivering pushes and pull-request events to the
 * controller's webhook and the layered builder: for a repository of three Node.js Functions, each round opens a
 * pull request that changes one Function's handler (timed until the preview's Function answers a new connection
 * with the new answer), closes it (timed until the preview's namespace is gone or terminating), then opens one that
 * adds an npm package to that Function (timed the same way) and merges it (timed until main's Function answers the
 * merged version), counting the build Jobs in the previews and in main's namespace.
 */
final class PreviewsBenchmark implements Benchmark {

  static final String NAMESPACE = "previews";
  /** Packages the test bed's npm mirror serves that have no dependencies of their own; one more each round. */
  private static final List<String> NPM = List.of("escape-html@1.0.3", "etag@1.8.1", "fresh@2.0.0", "vary@1.1.2",
      "ee-first@1.1.1", "unpipe@1.0.0", "toidentifier@1.0.1", "wrappy@1.0.2");

  private final int rounds = Math.max(1, Math.min(NPM.size(), Integer.getInteger("bench.previews.rounds", 3)));

  private final Row handlerOpened = Row.millis("pull request opened → preview answering a new connection,"
      + " handler-only change, p50 (" + rounds + " pull requests)", Target.atMost(30_000));
  private final Row handlerRunning = Row.millis("  opened → status.previews says Running at its head, p50");
  private final Row handlerJobs = Row.count("build Jobs in the previews of the handler-only changes (" + rounds
      + " pull requests)", Target.exactly(0));
  private final Row dependencyOpened = Row.millis("pull request opened → preview answering a new connection,"
      + " dependency change (one npm package added), p50 (" + rounds + " pull requests)", Target.atMost(45_000));
  private final Row dependencyJob = Row.millis("  install Job created → its Pod's pack container ended, p50");
  private final Row dependencyJobs = Row.count("install Jobs in the previews of the dependency changes (" + rounds
      + " pull requests)", Target.exactly(rounds));
  private final Row merged = Row.millis("merge → main answering the merged version on a new connection, p50 ("
      + rounds + " merges of the dependency changes)", Target.atMost(10_000));
  private final Row mergedDeployment = Row.millis("  merge → main's Deployment on the new image, p50");
  private final Row mergedApplied = Row.millis("  merge → main's revision applied (webhook, fetch, apply), p50");
  private final Row mergeJobs = Row.count("build Jobs in main's namespace on merge (" + rounds + " merges)",
      Target.exactly(0));
  private final Row mergedGone = Row.millis("merge → preview's namespace gone or terminating, p50");
  private final Row closedGone = Row.millis("close → preview's namespace gone or terminating, p50 (" + rounds
      + " closes)", Target.atMost(60_000));

  @Override
  public String name() {
    return "previews";
  }

  @Override
  public String description() {
    return "previews of pull requests on a real node through Gitea's webhooks, 3 layered Node.js Functions:"
        + " opened → answering (handler-only, dependency change), merge → main answering, close → namespace gone,"
        + " " + rounds + " rounds";
  }

  @Override
  public List<Row> rows() {
    return List.of(handlerOpened, handlerRunning, handlerJobs, dependencyOpened, dependencyJob, dependencyJobs,
        merged, mergedApplied, mergedDeployment, mergeJobs, mergedGone, closedGone);
  }

  @Override
  public List<Metric> run() throws Exception {
    Path dir = Files.createDirectories(TestBedBinaries.projectDir().resolve("target/bench/previews-runs"));
    RealNode node = RealNode.shared();
    List<ChangeTimeline.Steps> handlerOpens = new ArrayList<>();
    List<ChangeTimeline.Steps> handlerRunnings = new ArrayList<>();
    List<ChangeTimeline.Steps> dependencyOpens = new ArrayList<>();
    List<ChangeTimeline.Steps> merges = new ArrayList<>();
    List<Double> mergeGones = new ArrayList<>();
    List<Double> closeGones = new ArrayList<>();
    int previewHandlerJobs = 0;
    int previewInstallJobs = 0;
    int mainJobsOnMerge = 0;
    try (NodeGitfn gitfn = NodeGitfn.start(node);
        KubernetesClient client = node.newClient();
        GiteaServer gitea = GiteaServer.start(Files.createTempDirectory(dir, "gitea-"))) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
          .build()).create();
      client.serviceAccounts().inNamespace(NAMESPACE).withName("default")
          .waitUntilCondition(Objects::nonNull, 60, TimeUnit.SECONDS);
      gitfn.prepare(client, NAMESPACE);
      PreviewedRepository infra = PreviewedRepository.create(client, gitea, gitfn, NAMESPACE,
          Files.createTempDirectory(dir, "home-"));
      for (String name : PreviewedRepository.FUNCTIONS) {
        awaitAnswer(client, NAMESPACE, name, name + " v1");
      }
      settle(client, NAMESPACE, "hello", "hello v1");
      URI main = serviceUri(client, NAMESPACE, "hello");
      // Made before the first merge: a watch's first events are the objects as they are, not changes.
      ChangeTimeline mainTimeline = new ChangeTimeline(client, NAMESPACE, PreviewedRepository.NAME, "hello");
      Thread.sleep(1_000);

      for (int round = 1; round <= rounds; round++) {
        List<String> mainPackages = NPM.subList(0, round - 1);

        // A handler-only change, previewed, then closed.
        String answer = "hello h" + round;
        PullRequest handler;
        ChangeTimeline.Steps opened;
        String previewNamespace;
        long running;
        try (Opened pr = open(client, infra, 2 * round - 1, "handler-" + round,
            PreviewedRepository.function("hello", answer, mainPackages), answer)) {
          handler = pr.pullRequest();
          opened = pr.steps();
          running = pr.running();
          previewNamespace = pr.namespace();
          previewHandlerJobs += pr.timeline().jobsCreated();
        }
        handlerOpens.add(opened);
        handlerRunnings.add(new ChangeTimeline.Steps(opened.pushed(), 0, 0, 0, 0, 0, running));
        long closed = System.nanoTime();
        infra.close(handler.number());
        closeGones.add(until("the preview of #" + handler.number() + " goes after its close",
            () -> infra.namespaceGone(handler.number())) - closed / 1e6);
        System.out.println("  close of #" + handler.number() + " → namespace gone or terminating: "
            + closeGones.get(closeGones.size() - 1).longValue() + " ms");
        awaitDeleted(client, previewNamespace);

        // A dependency change, previewed, then merged.
        String dependencyAnswer = "hello d" + round;
        List<String> packages = NPM.subList(0, round);
        PullRequest dependency;
        try (Opened pr = open(client, infra, 2 * round, "dependency-" + round,
            PreviewedRepository.function("hello", dependencyAnswer, packages), dependencyAnswer)) {
          dependency = pr.pullRequest();
          dependencyOpens.add(pr.steps());
          previewInstallJobs += pr.timeline().jobsCreated();
          previewNamespace = pr.namespace();
        }
        int jobsBefore = mainTimeline.jobsCreated();
        long merging = System.nanoTime();
        infra.merge(dependency.number());
        // Both timed from the merge, each polled every 20 ms until both hold.
        long answering = 0;
        long gone = 0;
        long deadline = merging + BUILD_AND_ROLL_OUT.toNanos();
        while (answering == 0 || gone == 0) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("after the merge of #" + dependency.number() + ", within "
                + BUILD_AND_ROLL_OUT + ": main answering " + (answering != 0) + ", the preview gone " + (gone != 0));
          }
          if (answering == 0 && dependencyAnswer.equals(NewConnection.get(main))) {
            answering = System.nanoTime();
          }
          if (gone == 0 && infra.namespaceGone(dependency.number())) {
            gone = System.nanoTime();
          }
          Thread.sleep(20);
        }
        ChangeTimeline.Steps steps = mainTimeline.of(merging, answering);
        merges.add(steps);
        mergeGones.add((gone - merging) / 1e6);
        System.out.println("  merge of #" + dependency.number() + ": main answering after "
            + (long) steps.millis(steps.pushed(), steps.answering()) + " ms (" + ChangeTimeline.describe(steps)
            + "), the preview's namespace gone or terminating after " + (gone - merging) / 1_000_000 + " ms");
        settle(client, NAMESPACE, "hello", dependencyAnswer);
        mainJobsOnMerge += mainTimeline.jobsCreated() - jobsBefore;
        awaitDeleted(client, previewNamespace);
      }

      mainTimeline.close();
      return List.of(
          handlerOpened.value(p50(handlerOpens, s -> s.millis(s.pushed(), s.answering()))),
          handlerRunning.value(p50(handlerRunnings, s -> s.millis(s.pushed(), s.answering()))),
          handlerJobs.value(previewHandlerJobs),
          dependencyOpened.value(p50(dependencyOpens, s -> s.millis(s.pushed(), s.answering()))),
          dependencyJob.value(p50(dependencyOpens, s -> s.millis(s.jobCreated(), s.packed()))),
          dependencyJobs.value(previewInstallJobs),
          merged.value(p50(merges, s -> s.millis(s.pushed(), s.answering()))),
          mergedApplied.value(p50(merges, s -> s.millis(s.pushed(), s.applied()))),
          mergedDeployment.value(p50(merges, s -> s.millis(s.pushed(), s.deploymentUpdated()))),
          mergeJobs.value(mainJobsOnMerge),
          mergedGone.value(median(mergeGones)),
          closedGone.value(median(closeGones)));
    } finally {
      RealNode.stopShared();
    }
  }

  /**
   * A pull request opened and previewed: the timeline of its preview's namespace (its Jobs, its install Pods, its
   * Deployment of hello) from the moment it was opened until hello answered {@code answer} there, and when
   * status.previews said Running at its head.
   */
  private record Opened(PullRequest pullRequest, String namespace, ChangeTimeline timeline, ChangeTimeline.Steps steps,
      long running) implements AutoCloseable {
    @Override
    public void close() {
      timeline.close();
    }
  }

  /**
   * Opens pull request {@code number} (Gitea numbers a repository's pull requests 1, 2, ...; this one has no
   * issues) of {@code branch} changing hello, times it until hello answers {@code answer} in the
   * preview on a new connection, and checks that the two other Functions answer main's v1 there.
   */
  private static Opened open(KubernetesClient client, PreviewedRepository infra, long number, String branch,
      String function, String answer) throws Exception {
    // The preview's namespace is watched before it exists.
    String namespace = infra.previewNamespace(number);
    ChangeTimeline timeline = new ChangeTimeline(client, namespace, PreviewedRepository.NAME, "hello");
    try {
      long started = System.nanoTime();
      PullRequest pr = infra.openPullRequest(branch, "hello", function);
      if (!infra.previewNamespace(pr.number()).equals(namespace)) {
        throw new IllegalStateException("pull request " + pr.number() + " is not the one expected: " + namespace);
      }
      long running = 0;
      long deadline = started + BUILD_AND_ROLL_OUT.toNanos();
      while (true) {
        if (running == 0 && infra.running(pr)) {
          running = System.nanoTime();
        }
        URI service = serviceUri(client, namespace, "hello");
        if (service != null && answer.equals(NewConnection.get(service))) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the preview of #" + pr.number() + " did not answer `" + answer
              + "` within " + BUILD_AND_ROLL_OUT + "; " + infra.preview(pr.number()).map(p -> p.getPhase() + ": "
              + p.getMessage()).orElse("no preview") + "; hello: " + RealNodeChanges.status(client, namespace,
              "hello"));
        }
        Thread.sleep(20);
      }
      ChangeTimeline.Steps steps = timeline.of(started, System.nanoTime());
      while (running == 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the preview of #" + pr.number() + " is not Running at its head");
        }
        Thread.sleep(20);
        running = infra.running(pr) ? System.nanoTime() : 0;
      }
      System.out.println("  #" + pr.number() + " (" + branch + ") opened → preview answering: "
          + (long) steps.millis(steps.pushed(), steps.answering()) + " ms (Running after "
          + (running - started) / 1_000_000 + " ms; " + ChangeTimeline.describe(steps) + ")");
      for (String other : List.of("orders", "greeting")) {
        awaitAnswer(client, namespace, other, other + " v1");
      }
      return new Opened(pr, namespace, timeline, steps, running);
    } catch (Exception | Error e) {
      timeline.close();
      throw e;
    }
  }

  /** Polls {@code done} every 20 ms; returns the moment it held, in milliseconds of {@link System#nanoTime}. */
  private static double until(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + BUILD_AND_ROLL_OUT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + ": not within " + BUILD_AND_ROLL_OUT);
      }
      Thread.sleep(20);
    }
    return System.nanoTime() / 1e6;
  }

  /**
   * Waits until a preview's namespace is deleted, not only terminating, so that its Pods leave the node's two cores
   * to the next round; not timed.
   */
  private static void awaitDeleted(KubernetesClient client, String namespace) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (client.namespaces().withName(namespace).get() != null) {
      if (System.nanoTime() > deadline) {
        System.out.println("  " + namespace + " still terminating after 3 min; going on");
        return;
      }
      Thread.sleep(500);
    }
  }

  private static double median(List<Double> values) {
    return ControllerBenchmark.percentile(values.stream().mapToDouble(Double::doubleValue).toArray(), 50);
  }
}
