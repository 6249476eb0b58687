package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import io.gitfn.workload.DesiredDeployment;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How a Function's Deployment moves between versions on a cluster: the controller-manager rolls it, kwok makes
 * its Pods Ready, and at no moment does it have fewer available Pods than asked for.
 */
@WithKubeCluster
class FunctionRolloutIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String V1 = "module.exports = { main: () => 'v1' };";
  private static final String V2 = "module.exports = { main: () => 'v2' };";
  private static final int REPLICAS = 3;
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "rollout", ControllerSettings.defaults());
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void aRevertRollsBackWithoutABuildAndKeepsEveryReplicaAvailable(KubernetesClient client, TestNamespace ns) {
    try (JobLog created = JobLog.watch(client, ns)) {
      revertUnderWatch(client, ns, created);
    }
  }

  private void revertUnderWatch(KubernetesClient client, TestNamespace ns, JobLog created) {
    // min = max leaves an HPA no room, so there is none; spec.replicas is what sets the Deployment's.
    client.resource(TestFunction.inline().named("rolling").inNamespace(ns.name()).uid(null).code(V1)
        .replicas(REPLICAS).scale(REPLICAS, REPLICAS).build()).create();
    String first = awaitRolledOut(client, ns, null);
    edit(client, ns, V2);
    String second = awaitRolledOut(client, ns, first);
    assertThat(second).isNotEqualTo(first);
    // The namespace's first install Job (the runtime, no dependencies); v2 changes only the handler: no Job.
    await().atMost(WAIT).until(() -> created.uids().size() == 1);

    Deployment before = deployment(client, ns);
    assertThat(before.getSpec().getReplicas()).isEqualTo(REPLICAS);
    assertThat(before.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
    assertThat(before.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable()).isEqualTo(new IntOrString(0));
    assertThat(before.getSpec().getStrategy().getRollingUpdate().getMaxSurge()).isEqualTo(new IntOrString(1));

    // Watching from the resourceVersion read before the edit: the API server sends every change after it, even
    // one made before the watch connection is up.
    List<Observed> seen = new CopyOnWriteArrayList<>();
    List<Watcher.Action> actions = new CopyOnWriteArrayList<>();
    List<WatcherException> closed = new CopyOnWriteArrayList<>();
    try (Watch watch = client.apps().deployments().inNamespace(ns.name()).withName("rolling").watch(
        new ListOptionsBuilder().withResourceVersion(before.getMetadata().getResourceVersion()).build(),
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, Deployment deployment) {
            actions.add(action);
            seen.add(Observed.of(deployment));
          }

          @Override
          public void onClose(WatcherException cause) {
            closed.add(cause);
          }
        })) {
      edit(client, ns, V1);
      await().atMost(WAIT).untilAsserted(() -> assertThat(seen).last().satisfies(o -> {
        assertThat(o.image()).isEqualTo(first);
        assertThat(o.rolledOut()).isTrue();
      }));
    }

    assertThat(closed).as("the watch ended early").isEmpty();
    assertThat(actions).containsOnly(Watcher.Action.MODIFIED);
    assertThat(seen).as("every status from the revert until it is rolled out").allSatisfy(o ->
        assertThat(o.available()).isGreaterThanOrEqualTo(REPLICAS));
    assertThat(seen).as("the watch saw the rollout in progress, not only its end").anySatisfy(o -> {
      assertThat(o.image()).isEqualTo(first);
      assertThat(o.updated() < REPLICAS || o.replicas() > REPLICAS).isTrue();
    });

    assertThat(created.uids()).as("a revert builds nothing").hasSize(1);
    Function fn = awaitReady(client, ns);
    assertThat(fn.getStatus().getImage()).isEqualTo(first);
    assertThat(fn.getStatus().getHistory()).first().satisfies(head -> {
      assertThat(head.getOutcome()).isEqualTo("Reused");
      assertThat(head.getImage()).isEqualTo(first);
    });
    assertThat(fn.getStatus().getHistory()).extracting(FunctionHistoryEntry::getOutcome)
        .containsExactly("Reused", "Succeeded", "Succeeded");
  }

  /** One Deployment as the watch delivered it. */
  record Observed(String image, long generation, long observedGeneration, int replicas, int updated,
      int available) {

    static Observed of(Deployment deployment) {
      DeploymentStatus status = Objects.requireNonNullElseGet(deployment.getStatus(), DeploymentStatus::new);
      return new Observed(FunctionRolloutIT.image(deployment), deployment.getMetadata().getGeneration(),
          count(status.getObservedGeneration()), count(status.getReplicas()), count(status.getUpdatedReplicas()),
          count(status.getAvailableReplicas()));
    }

    /** All replicas run the current template and are available, and no Pod of an older one is left. */
    boolean rolledOut() {
      return observedGeneration >= generation && replicas == REPLICAS && updated == REPLICAS
          && available == REPLICAS;
    }

    private static int count(Number value) {
      return value == null ? 0 : value.intValue();
    }
  }

  private static void edit(KubernetesClient client, TestNamespace ns, String source) {
    FunctionEdits.edit(client, ns, "rolling", f -> {
      f.getSpec().getSource().getInline().setSource(source);
      return f;
    });
  }

  /** Waits until the Function is Ready on an image other than {@code previous} and all replicas run it. */
  private static String awaitRolledOut(KubernetesClient client, TestNamespace ns, String previous) {
    await().atMost(WAIT).untilAsserted(() -> {
      Function fn = get(client, ns);
      assertReady(fn);
      assertThat(fn.getStatus().getImage()).isNotEqualTo(previous);
      Observed deployment = Observed.of(deployment(client, ns));
      assertThat(deployment.image()).isEqualTo(fn.getStatus().getImage());
      assertThat(deployment.rolledOut()).isTrue();
    });
    return get(client, ns).getStatus().getImage();
  }

  private static Function awaitReady(KubernetesClient client, TestNamespace ns) {
    await().atMost(WAIT).untilAsserted(() -> assertReady(get(client, ns)));
    return get(client, ns);
  }

  private static void assertReady(Function fn) {
    assertThat(fn.getStatus()).isNotNull();
    assertThat(fn.getStatus().getObservedGeneration()).isEqualTo(fn.getMetadata().getGeneration());
    assertThat(fn.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus)
        .containsExactlyInAnyOrder(tuple("ConfigurationReady", "True"), tuple("BuildReady", "True"),
            tuple("Running", "True"));
  }

  private static Function get(KubernetesClient client, TestNamespace ns) {
    return client.resources(Function.class).inNamespace(ns.name()).withName("rolling").get();
  }

  private static Deployment deployment(KubernetesClient client, TestNamespace ns) {
    return client.apps().deployments().inNamespace(ns.name()).withName("rolling").get();
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DesiredDeployment.CONTAINER)).findFirst().orElseThrow().getImage();
  }
}
