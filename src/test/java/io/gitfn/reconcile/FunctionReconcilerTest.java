package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import org.junit.jupiter.api.Test;

class FunctionReconcilerTest {

  @Test
  void aDeploymentIsRolledOutWhenEveryDesiredReplicaIsUpdatedAndAvailable() {
    assertThat(FunctionReconciler.rolledOut(deployment(2, 2L, 2, 2, 2))).isTrue();
  }

  @Test
  void aStatusFromAnEarlierGenerationSaysNothingAboutTheCurrentTemplate() {
    assertThat(FunctionReconciler.rolledOut(deployment(2, 1L, 2, 2, 2))).isFalse();
  }

  @Test
  void oldPodsStillRunningMeanTheRolloutIsNotDone() {
    assertThat(FunctionReconciler.rolledOut(deployment(2, 2L, 3, 2, 3))).isFalse();
  }

  @Test
  void tooFewAvailableReplicasMeanWaiting() {
    assertThat(FunctionReconciler.rolledOut(deployment(2, 2L, 2, 2, 1))).isFalse();
    assertThat(FunctionReconciler.rolledOut(new DeploymentBuilder().withNewMetadata().withGeneration(1L)
        .endMetadata().withNewSpec().withReplicas(1).endSpec().build())).isFalse();
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
