package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.ContentKey;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.workload.DesiredDeployment;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Automatic rollback on a cluster: a version whose Pods never turn Ready goes back to the last version that ran,
 * with no build and no replica unavailable, and is not tried again until the spec moves on; a version whose build
 * fails never reaches the Deployment and is not built again in a loop. kwok keeps Pods of images under the
 * registry's never-ready path Running but never Ready ({@link KwokLayeredBuilds#neverReady}), so a controller that
 * pushes there makes a version that cannot start.
 */
@WithKubeCluster
class AutoRollbackIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String V1 = "module.exports = { main: () => 'v1' };";
  private static final String V2 = "module.exports = { main: () => 'v2' };";
  private static final String V3 = "module.exports = { main: () => 'v3' };";
  private static final int REPLICAS = 2;

  @Test
  void aVersionThatNeverTurnsReadyGoesBackToTheLastOneThatRanWithNoReplicaUnavailable(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    String first;
    try (ControllerUnderTest gitfn = ControllerUnderTest.start(bed, "rollback-a", ControllerSettings.defaults())) {
      client.resource(TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null).code(V1)
          .replicas(REPLICAS).scale(REPLICAS, REPLICAS).build()).create();
      first = awaitRunning(client, ns).getStatus().getImage();
      // At rest before it stops: the Function left its install Job, which the Job controller marks complete a moment
      // after the Pod that the Function went on with. The next controller pushes to another registry, and a Job of
      // the same dependency key left behind would say it was made already (see the note on issue 28).
      await().atMost(WAIT).until(() -> client.batch().v1().jobs().inNamespace(ns.name()).list().getItems().isEmpty());
    }
    // gitfn leaves the deadline at Kubernetes' 600 s; another field manager's shorter one brings the verdict soon.
    client.apps().deployments().inNamespace(ns.name()).withName("hello").patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"progressDeadlineSeconds\":4}}");
    Deployment before = deployment(client, ns);
    // Before the next controller starts: its first pass sees v2, which it pushes where no Pod turns Ready.
    edit(client, ns, V2);

    List<DeploymentStatus> seen = new CopyOnWriteArrayList<>();
    List<WatcherException> closed = new CopyOnWriteArrayList<>();
    try (JobLog jobs = JobLog.watch(client, ns);
        Watch watch = client.apps().deployments().inNamespace(ns.name()).withName("hello").watch(
            new ListOptionsBuilder().withResourceVersion(before.getMetadata().getResourceVersion()).build(),
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, Deployment deployment) {
                seen.add(Objects.requireNonNullElseGet(deployment.getStatus(), DeploymentStatus::new));
              }

              @Override
              public void onClose(WatcherException cause) {
                closed.add(cause);
              }
            });
        ControllerUnderTest gitfn = ControllerUnderTest.start(bed, "rollback-b", ControllerSettings.defaults(),
            bed.layeredBuilds().neverReady())) {

      await().atMost(WAIT).untilAsserted(() -> assertThat(running(get(client, ns))).satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("RolledBack");
        assertThat(c.getMessage()).startsWith("rolled back to revision inline").contains("failed to roll out:"
            + " DeploymentFailed: Deployment hello has not rolled out within its progress deadline of 4 s");
      }));
      Function fn = get(client, ns);
      AutoRollback rollback = fn.getStatus().getRollback();
      assertThat(rollback.getReason()).isEqualTo("DeploymentFailed");
      assertThat(first).contains(":" + new ContentKey(rollback.getRestoredContentKey()).tag() + "@sha256:");
      assertThat(image(deployment(client, ns))).as("the last version that ran, by digest").isEqualTo(first);
      assertThat(fn.getStatus().getImage()).isEqualTo(first);
      int jobsMade = jobs.uids().size(); // at most the runtime image's install, for the never-ready path
      assertThat(jobsMade).as("no Job for a handler-only change or a rollback").isLessThanOrEqualTo(1);
      assertThat(client.v1().events().inNamespace(ns.name()).list().getItems())
          .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("RolledBack"));

      // Quarantined: the failed version is neither rolled out nor built again while the spec asks for it.
      await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(image(deployment(client, ns))).isEqualTo(first);
        assertThat(jobs.uids()).as("no Job made again").hasSize(jobsMade);
      });
    }
    assertThat(closed).as("the watch ended early").isEmpty();
    assertThat(seen).as("every Deployment status from the failed version's rollout to the rollback's end")
        .isNotEmpty().allSatisfy(s -> assertThat(s.getAvailableReplicas()).isGreaterThanOrEqualTo(REPLICAS));

    // A fix deploys as any version does, and ends the quarantine.
    edit(client, ns, V3);
    try (ControllerUnderTest gitfn = ControllerUnderTest.start(bed, "rollback-c", ControllerSettings.defaults())) {
      Function fixed = awaitRunning(client, ns);
      assertThat(fixed.getStatus().getImage()).isNotEqualTo(first);
      assertThat(fixed.getStatus().getRollback()).isNull();
    }
  }

  @Test
  void aVersionWhoseBuildFailsKeepsTheOldOneServingAndIsNotBuiltAgainInALoop(KubeTestBed bed,
      KubernetesClient client, TestNamespace ns) throws Exception {
    try (ControllerUnderTest gitfn = ControllerUnderTest.start(bed, "rollback-build", ControllerSettings.defaults());
        JobLog jobs = JobLog.watch(client, ns)) {
      client.resource(TestFunction.inline().named("hello").inNamespace(ns.name()).uid(null).code(V1).build())
          .create();
      String first = awaitRunning(client, ns).getStatus().getImage();

      FunctionEdits.edit(client, ns, "hello", f -> {
        f.getSpec().getSource().getInline().setSource(V2);
        f.getSpec().getSource().getInline().setDependencies(KwokLayeredBuilds.MISSING_DEPENDENCIES);
        return f;
      });
      await().atMost(WAIT).untilAsserted(() -> assertThat(condition(get(client, ns), "BuildReady"))
          .satisfies(c -> assertThat(c.getReason()).isEqualTo("JobFailed")));
      int jobsMade = jobs.uids().size();
      await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(jobs.uids()).as("v2's install Job, once").hasSize(jobsMade);
        assertThat(image(deployment(client, ns))).isEqualTo(first);
      });

      FunctionEdits.edit(client, ns, "hello", f -> {
        f.getSpec().getSource().getInline().setSource(V3);
        f.getSpec().getSource().getInline().setDependencies(null);
        return f;
      });
      assertThat(awaitRunning(client, ns).getStatus().getImage()).isNotEqualTo(first);
    }
  }

  private static Function awaitRunning(KubernetesClient client, TestNamespace ns) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns);
      assertThat(fn.getStatus()).isNotNull();
      assertThat(fn.getStatus().getObservedGeneration()).isEqualTo(fn.getMetadata().getGeneration());
      assertThat(fn.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus)
          .containsExactlyInAnyOrder(tuple("ConfigurationReady", "True"), tuple("BuildReady", "True"),
              tuple("Running", "True"));
      assertThat(image(deployment(client, ns))).isEqualTo(fn.getStatus().getImage());
    });
    return get(client, ns);
  }

  private static void edit(KubernetesClient client, TestNamespace ns, String source) {
    FunctionEdits.edit(client, ns, "hello", f -> {
      f.getSpec().getSource().getInline().setSource(source);
      return f;
    });
  }

  private static Condition running(Function fn) {
    return condition(fn, "Running");
  }

  private static Condition condition(Function fn, String type) {
    return fn.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  private static Function get(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name()).withName("hello").get();
  }

  private static Deployment deployment(KubernetesClient client, TestNamespace ns) {
    return client.apps().deployments().inNamespace(ns.name()).withName("hello").get();
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().orElseThrow().getImage();
  }
}
