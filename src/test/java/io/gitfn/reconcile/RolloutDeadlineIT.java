package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.KwokLayeredBuilds;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeCluster;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A rollout that stops progressing says so: once the Deployment controller reports ProgressDeadlineExceeded, the
 * Function's Running condition is False with DeploymentFailed and a message a person can act on, instead of
 * waiting in DeploymentWaiting forever. kwok keeps Pods of images under the registry's never-ready path Running but
 * never Ready ({@link KwokLayeredBuilds#neverReady}).
 */
@WithKubeCluster
class RolloutDeadlineIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static ControllerUnderTest running;

  @BeforeAll
  static void startController(KubeTestBed bed) throws Exception {
    running = ControllerUnderTest.start(bed, "deadline", ControllerSettings.defaults(),
        bed.layeredBuilds().neverReady());
  }

  @AfterAll
  static void stopController() throws Exception {
    running.close();
  }

  @Test
  void aRolloutPastItsProgressDeadlineIsDeploymentFailed(KubernetesClient client, TestNamespace ns) {
    client.resource(TestFunction.inline().named("stuck").inNamespace(ns.name()).uid(null).build()).create();
    // Wait for the status that reports on the Deployment, not for the Deployment: the status comes after it.
    await().atMost(WAIT).untilAsserted(() -> assertThat(running(client, ns)).hasValueSatisfying(c -> {
      assertThat(c.getReason()).isEqualTo("DeploymentWaiting");
      assertThat(c.getMessage()).startsWith("Deployment stuck is rolling out: its new Pod stuck-")
          .contains("is not Ready: running, not passing its readiness probe yet");
    }));

    // gitfn leaves the deadline at Kubernetes' default (600 s); a shorter one, set by another field manager,
    // brings the verdict within the test.
    client.apps().deployments().inNamespace(ns.name()).withName("stuck").patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"progressDeadlineSeconds\":3}}");

    await().atMost(WAIT).untilAsserted(() -> assertThat(running(client, ns)).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("DeploymentFailed");
      assertThat(c.getMessage()).startsWith("Deployment stuck has not rolled out within its progress deadline of 3 s: ")
          .contains("progress deadline").contains("kubectl describe");
    }));
    Deployment deployment = client.apps().deployments().inNamespace(ns.name()).withName("stuck").get();
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .as("gitfn neither reverts nor deletes the Deployment").contains("/" + KwokLayeredBuilds.NEVER_READY + "/");
  }

  private static Optional<Condition> running(KubernetesClient client, TestNamespace ns) {
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName("stuck").get();
    if (fn == null || fn.getStatus() == null || fn.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return fn.getStatus().getConditions().stream().filter(c -> "Running".equals(c.getType())).findFirst();
  }
}
