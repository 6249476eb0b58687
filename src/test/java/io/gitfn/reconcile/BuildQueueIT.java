package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.controller.Controller;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokBuildStages;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.WorkloadSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Builds in cluster mode with kwok holding each build Pod for a while: the cluster-wide limit holds, waiting builds
 * say so, and a controller restarted in the middle of a build picks the running Job up instead of starting another.
 */
@WithKubeCluster
class BuildQueueIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @Test
  void eightFunctionsOfOneNamespaceNeverHaveMoreThanItsShareOfFourBuildsRunning(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    try (KubernetesClient controllerClient = bed.newClient();
        Controller controller = start(bed, controllerClient, Duration.ofSeconds(3));
        JobLog jobs = JobLog.watch(client, ns)) {
      for (int i = 0; i < 8; i++) {
        client.resource(function(ns, "fn-" + i)).create();
      }

      await().atMost(WAIT).untilAsserted(() -> {
        List<Function> queued = functions(client, ns).stream().filter(fn -> "JobQueued".equals(buildReason(fn)))
            .toList();
        assertThat(queued).as("Functions told they wait for a slot").isNotEmpty();
        // Of the 5 slots one namespace may hold 4, so that another namespace's build always finds one.
        assertThat(queued).allSatisfy(fn -> assertThat(buildCondition(fn).getMessage())
            .contains("waiting for a build slot: this namespace holds 4 of the 5"));
      });
      await().atMost(WAIT).untilAsserted(() -> assertThat(functions(client, ns))
          .hasSize(8).allSatisfy(fn -> assertThat(ready(fn)).as(describe(fn)).isTrue()));

      assertThat(jobs.uids()).as("one build per Function").hasSize(8);
      assertThat(jobs.mostActive()).as("the most builds running at once").isEqualTo(4);
    }
  }

  @Test
  void aControllerRestartedDuringABuildNeitherStartsASecondJobNorLosesTheFunction(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    bed.installCrds();
    try (JobLog jobs = JobLog.watch(client, ns)) {
      try (KubernetesClient controllerClient = bed.newClient();
          Controller first = start(bed, controllerClient, Duration.ofSeconds(8))) {
        client.resource(function(ns, "survivor")).create();
        await().atMost(WAIT).untilAsserted(() -> {
          assertThat(jobs.uids()).hasSize(1);
          assertThat(buildReason(get(client, ns, "survivor"))).isEqualTo("JobRunning");
        });
      } // stopped while kwok still holds the build Pod

      Job running = client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().get(0);
      assertThat(JobLog.finished(running))
          .as("the build is still running when the controller stops").isFalse();

      try (KubernetesClient controllerClient = bed.newClient();
          Controller second = start(bed, controllerClient, Duration.ofSeconds(8))) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(ready(get(client, ns, "survivor"))).isTrue());
      }
      assertThat(jobs.uids()).as("the restarted controller adopted the running Job").hasSize(1);
      assertThat(get(client, ns, "survivor").getStatus().getHistory()).extracting("outcome")
          .containsExactly("Succeeded");
    }
  }

  @Test
  void aControllerKilledFiveTimesDuringABuildStartsNoSecondJobAndTheBuildCompletes(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    bed.installCrds();
    java.nio.file.Path dir = Files.createTempDirectory("gitfn-killed-controllers");
    // Long enough that the five kills land while kwok still holds the build Pod.
    List<String> flags = new ArrayList<>(bed.layeredBuilds().flags());
    flags.add("--build-pod-annotation=" + KwokBuildStages.BUILD_DURATION + "=60s");
    try (JobLog jobs = JobLog.watch(client, ns)) {
      client.resource(function(ns, "survivor")).create();
      for (int kill = 1; kill <= 5; kill++) {
        try (ControllerJvm controller = ControllerJvm.start("killed-" + kill, bed.kubeconfig(), dir, flags)) {
          // Killed after its first pass of the Function: the first starts the Job, the others find it.
          await().atMost(WAIT).until(() -> functionPasses(controller) > 0);
          // The test's own watch sees the Job a moment after the controller's pass created it.
          int killed = kill;
          await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(jobs.uids())
              .as("build Jobs after pass " + killed).hasSize(1));
          controller.kill(); // SIGKILL: no shutdown hook, no finished reconcile
        }
      }
      Job running = client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().get(0);
      assertThat(JobLog.finished(running))
          .as("the build is still running after the fifth kill").isFalse();

      try (ControllerJvm last = ControllerJvm.start("last", bed.kubeconfig(), dir, flags)) {
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(ready(get(client, ns, "survivor")))
            .as(describe(get(client, ns, "survivor"))).isTrue());
      }
      assertThat(jobs.uids()).as("one build Job across six controllers").hasSize(1);
      assertThat(get(client, ns, "survivor").getStatus().getHistory()).extracting("outcome")
          .containsExactly("Succeeded");
    }
  }

  /** Function passes the controller has finished, from its {@code /metrics}. */
  private static double functionPasses(ControllerJvm controller) throws Exception {
    return controller.get("metrics").body().lines()
        .filter(line -> line.startsWith("gitfn_reconcile_seconds_count{") && line.contains("kind=\"Function\""))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  void aBuildThatRunsPastTheDeadlineFailsSayingSoAndFreesItsSlot(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    BuildSettings builds = bed.layeredBuilds().settings().withConcurrency(1).withDeadline(Duration.ofSeconds(3))
        .withPodAnnotations(KwokBuildStages.buildDuration(Duration.ofHours(1))); // an install that never ends
    try (KubernetesClient controllerClient = bed.newClient();
        Controller controller = start(controllerClient, builds)) {
      client.resource(function(ns, "endless")).create();
      client.resource(function(ns, "next")).create();

      await().atMost(WAIT).untilAsserted(() -> assertThat(buildCondition(get(client, ns, "endless")))
          .satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).contains("it ran longer than the build deadline of 3s (--build-deadline)"
                + " and was stopped");
          }));
      // The one slot went to the other Function, whose build is held the same way.
      await().atMost(WAIT).untilAsserted(() -> assertThat(buildReason(get(client, ns, "next")))
          .isIn("JobRunning", "JobFailed"));
    }
  }

  private static Controller start(KubeTestBed bed, KubernetesClient client, Duration buildDuration) throws Exception {
    return start(client, bed.layeredBuilds().settings()
        .withPodAnnotations(KwokBuildStages.buildDuration(buildDuration)));
  }

  private static Controller start(KubernetesClient client, BuildSettings builds) throws Exception {
    try {
      return Controller.start(client, SourceSettings.defaults(Files.createTempDirectory("gitfn-queue-mirrors")),
          WebhookSettings.defaults(), ControllerSettings.defaults(), builds, WorkloadSettings.defaults(),
          "127.0.0.1", 0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A Function with dependencies of its own, so an install Job of its own. */
  private static Function function(TestNamespace ns, String name) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null)
        .code("module.exports = { main: () => '" + name + "' };")
        .dependencies("{\"dependencies\": {\"" + name + "\": \"1.0.0\"}}").build();
  }


  private static List<Function> functions(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name()).list().getItems();
  }

  private static Function get(KubernetesClient client, TestNamespace ns, String name) {
    return client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
  }

  private static Condition buildCondition(Function fn) {
    if (fn.getStatus() == null || fn.getStatus().getConditions() == null) {
      return new Condition();
    }
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals("BuildReady")).findFirst()
        .orElseGet(Condition::new);
  }

  private static String buildReason(Function fn) {
    return buildCondition(fn).getReason();
  }

  private static String describe(Function fn) {
    return fn.getMetadata().getName() + ": " + (fn.getStatus() == null ? "no status"
        : fn.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason()
            + " (" + c.getMessage() + ")").toList());
  }

  private static boolean ready(Function fn) {
    return fn.getStatus() != null && fn.getStatus().getConditions() != null
        && Objects.equals(fn.getStatus().getObservedGeneration(), fn.getMetadata().getGeneration())
        && fn.getStatus().getConditions().size() == 3
        && fn.getStatus().getConditions().stream().allMatch(c -> c.getStatus().equals("True"));
  }
}
