package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.gitfn.api.function.TestFunction;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObserveRolloutStepTest {

  @Test
  void aDeploymentIsRolledOutWhenEveryDesiredReplicaIsUpdatedAndAvailable() {
    assertThat(ObserveRolloutStep.rolledOut(deployment(2, 2L, 2, 2, 2))).isTrue();
  }

  @Test
  void aStatusFromAnEarlierGenerationSaysNothingAboutTheCurrentTemplate() {
    assertThat(ObserveRolloutStep.rolledOut(deployment(2, 1L, 2, 2, 2))).isFalse();
  }

  @Test
  void oldPodsStillRunningMeanTheRolloutIsNotDone() {
    assertThat(ObserveRolloutStep.rolledOut(deployment(2, 2L, 3, 2, 3))).isFalse();
  }

  @Test
  void tooFewAvailableReplicasMeanWaiting() {
    assertThat(ObserveRolloutStep.rolledOut(deployment(2, 2L, 2, 2, 1))).isFalse();
    assertThat(ObserveRolloutStep.rolledOut(new DeploymentBuilder().withNewMetadata().withGeneration(1L)
        .endMetadata().withNewSpec().withReplicas(1).endSpec().build())).isFalse();
  }

  @Test
  void aFunctionAtZeroReplicasHasRolledOutOnceItsPodsAreGoneAndSaysSo() {
    Deployment atZero = deployment(0, 2L, 0, 0, 0);
    atZero.getMetadata().setName("orders");

    assertThat(ObserveRolloutStep.rolledOut(atZero)).isTrue();
    assertThat(ObserveRolloutStep.available(TestFunction.inline().replicas(0).build(), atZero))
        .isEqualTo("Deployment orders is scaled to 0: spec.replicas is 0, so no Pod runs until it is raised");
  }

  @Test
  void scaleConfigsHpaIsNamedInRunningWithKymasDeprecation() {
    Deployment running = deployment(2, 2L, 2, 2, 2);
    running.getMetadata().setName("orders");

    assertThat(ObserveRolloutStep.available(TestFunction.inline().scale(2, 5).build(), running))
        .isEqualTo("Deployment orders is available; HorizontalPodAutoscaler orders scales it between 2 and 5 on CPU"
            + " (scaleConfig: Kyma deprecated it and no longer creates an HPA from it; gitfn still does)");
  }

  @Test
  void anHpaDoesNotActOnAFunctionAtZero() {
    Deployment atZero = deployment(0, 2L, 0, 0, 0);
    atZero.getMetadata().setName("orders");

    assertThat(ObserveRolloutStep.available(TestFunction.inline().replicas(0).scale(2, 5).build(), atZero))
        .endsWith("; HorizontalPodAutoscaler orders does not act while the Function is at 0 (scaleConfig: Kyma"
            + " deprecated it and no longer creates an HPA from it; gitfn still does)");
  }

  @Test
  void aRolloutStalledPastItsProgressDeadlineCountsOnlyForTheCurrentTemplate() {
    Deployment stalled = deployment(2, 2L, 2, 1, 1);
    stalled.getStatus().setConditions(List.of(new DeploymentConditionBuilder().withType("Progressing")
        .withStatus("False").withReason("ProgressDeadlineExceeded")
        .withMessage("ReplicaSet \"orders-7f\" has timed out progressing.").build()));
    Deployment earlier = deployment(2, 1L, 2, 1, 1);
    earlier.getStatus().setConditions(stalled.getStatus().getConditions());

    assertThat(ObserveRolloutStep.stalled(stalled)).map(DeploymentCondition::getMessage)
        .hasValue("ReplicaSet \"orders-7f\" has timed out progressing.");
    assertThat(ObserveRolloutStep.stalled(earlier)).as("the verdict of an earlier template").isEmpty();
    assertThat(ObserveRolloutStep.stalled(deployment(2, 2L, 2, 1, 1))).as("still progressing").isEmpty();
  }

  private static Deployment deployment(int desired, Long observed, int replicas, int updated, int available) {
    return new DeploymentBuilder()
        .withNewMetadata().withGeneration(2L).endMetadata()
        .withNewSpec().withReplicas(desired).endSpec()
        .withNewStatus().withObservedGeneration(observed).withReplicas(replicas).withUpdatedReplicas(updated)
        .withAvailableReplicas(available).endStatus()
        .build();
  }
}
