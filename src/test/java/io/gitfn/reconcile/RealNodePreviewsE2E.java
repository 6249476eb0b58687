package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.repository.Preview;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.realnode.FunctionAnswers;
import io.gitfn.testbed.realnode.NodeGitfn;
import io.gitfn.testbed.realnode.PreviewedRepository;
import io.gitfn.testbed.realnode.PreviewedRepository.PullRequest;
import io.gitfn.testbed.realnode.RealNode;
import io.gitfn.testbed.realnode.WithRealNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Previews on a real node, with a real Gitea delivering pushes and pull-request events to the controller: a pull
 * request that changes one of three layered Functions' handlers gets a namespace where that Function answers with
 * its new answer and the other two with main's, and no build Job runs there (the preview uses the images main's
 * Functions run); its merge deploys the new answer to main's namespace with no build Job, and the preview's namespace
 * goes.
 */
@WithRealNode
class RealNodePreviewsE2E {

  private static final Logger log = LoggerFactory.getLogger(RealNodePreviewsE2E.class);
  private static NodeGitfn gitfn;
  private static GiteaServer gitea;

  @BeforeAll
  static void start(RealNode node) throws Exception {
    gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"));
    gitfn = NodeGitfn.start(node);
  }

  @AfterAll
  static void stop() throws Exception {
    try (GiteaServer closing = gitea) {
      gitfn.close();
    }
  }

  @Test
  void aHandlerOnlyPullRequestIsPreviewedWithNoBuildAndItsMergeDeploysWithNoBuild(KubernetesClient client,
      TestNamespace ns, @TempDir Path home) throws Exception {
    gitfn.prepare(client, ns.name());
    PreviewedRepository infra = PreviewedRepository.create(client, gitea, gitfn, ns.name(), home);
    long started = System.nanoTime();
    for (String name : PreviewedRepository.FUNCTIONS) {
      FunctionAnswers.awaitAnswer(client, ns.name(), name, name + " v1");
    }
    log.info("previews: main's three Functions answering after {} ms", since(started));

    // A new repository's first pull request is number 1: its namespace is watched before it exists.
    String previewNamespace = ns.name() + "-pr-1";
    try (JobLog previewJobs = JobLog.watch(client, previewNamespace)) {
      started = System.nanoTime();
      PullRequest change = infra.openPullRequest("hello-v2", "hello",
          PreviewedRepository.function("hello", "hello v2", List.of()));
      assertThat(change.number()).isEqualTo(1);
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> {
        Preview preview = infra.preview(1).orElseThrow(() -> new AssertionError("no preview of #1 yet"));
        assertThat(preview.getPhase()).as(preview.getMessage()).isEqualTo("Running");
        assertThat(preview.getHeadSha()).isEqualTo(change.head());
      });
      Preview preview = infra.preview(1).orElseThrow();
      assertThat(preview.getNamespace()).isEqualTo(previewNamespace);
      // The URL names a Service inside the cluster; the test reaches that Service by its ClusterIP, as every
      // real-node test does, since the host does not resolve cluster names.
      assertThat(preview.getUrl()).matches("http://(hello|orders|greeting)\\." + previewNamespace
          + "\\.svc\\.cluster\\.local/");
      FunctionAnswers.awaitAnswer(client, previewNamespace, "hello", "hello v2");
      log.info("previews: pull request opened → its changed Function answering in the preview after {} ms",
          since(started));
      FunctionAnswers.awaitAnswer(client, previewNamespace, "orders", "orders v1");
      FunctionAnswers.awaitAnswer(client, previewNamespace, "greeting", "greeting v1");
      assertThat(previewJobs.names()).as("build Jobs in the preview of a handler-only change").isEmpty();
    }
    FunctionAnswers.awaitAnswer(client, ns.name(), "hello", "hello v1");

    try (JobLog baseJobs = JobLog.watch(client, ns)) {
      started = System.nanoTime();
      String merged = infra.merge(1);
      await().atMost(FunctionAnswers.BUILD_AND_ROLL_OUT).untilAsserted(() -> assertThat(
          infra.infra().getStatus().getLastAppliedRevision()).isEqualTo("main@sha1:" + merged));
      FunctionAnswers.awaitAnswer(client, ns.name(), "hello", "hello v2");
      log.info("previews: merge → main's namespace answering the new version after {} ms", since(started));
      FunctionAnswers.awaitAnswer(client, ns.name(), "orders", "orders v1");
      assertThat(baseJobs.names()).as("build Jobs in main's namespace on merge").isEmpty();
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
        assertThat(infra.namespaceGone(1)).as("the preview's namespace gone or terminating").isTrue();
        assertThat(infra.preview(1)).as("status.previews after the merge").isEmpty();
      });
      long gone = since(started);
      log.info("previews: merge → preview's namespace gone or terminating, seen {} ms after the merge (looked at"
          + " once main answered)", gone);
      assertThat(gone).as("ms from the merge until the preview's namespace was gone or terminating")
          .isLessThanOrEqualTo(60_000);
    } finally {
      client.namespaces().withName(previewNamespace).delete();
    }
  }

  private static long since(long started) {
    return (System.nanoTime() - started) / 1_000_000;
  }
}
