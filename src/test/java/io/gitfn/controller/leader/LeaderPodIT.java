package io.gitfn.controller.leader;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Labels;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import org.junit.jupiter.api.Test;

/**
 * The leader's Pod carries {@code gitfn.io/leader=<lease>}, which the chart's webhook Service selects on: one Pod at
 * a time per Lease, whoever led before, and Pods of another Lease keep theirs.
 */
@WithKubeApi
class LeaderPodIT {

  @Test
  void theLeaderLabelsItsPodAndTakesTheLabelFromThePreviousLeader(KubernetesClient client, TestNamespace ns) {
    // No controller-manager here makes the namespace's default ServiceAccount, which Pod admission needs.
    client.resource(new ServiceAccountBuilder().withNewMetadata().withName("default").withNamespace(ns.name())
        .endMetadata().build()).createOr(existing -> existing.update());
    for (String name : new String[] {"gitfn-a", "gitfn-b", "other-shard"}) {
      client.resource(pod(ns, name)).create();
    }
    new LeaderPod(client, ns.name(), "other-shard", "shard-b").mark();

    LeaderPod a = new LeaderPod(client, ns.name(), "gitfn-a", "gitfn");
    a.mark();
    assertThat(leaderLabel(client, ns, "gitfn-a")).isEqualTo("gitfn");
    assertThat(leaderLabel(client, ns, "gitfn-b")).isNull();

    // a hangs, b takes the Lease over: b alone gets deliveries.
    new LeaderPod(client, ns.name(), "gitfn-b", "gitfn").mark();
    assertThat(leaderLabel(client, ns, "gitfn-b")).isEqualTo("gitfn");
    assertThat(leaderLabel(client, ns, "gitfn-a")).isNull();
    assertThat(leaderLabel(client, ns, "other-shard")).as("another Lease's leader").isEqualTo("shard-b");
    assertThat(client.pods().inNamespace(ns.name()).withName("gitfn-a").get().getMetadata().getLabels())
        .as("the Pod's other labels stay").containsEntry("app", "gitfn");

    new LeaderPod(client, ns.name(), "gitfn-b", "gitfn").unmark();
    assertThat(leaderLabel(client, ns, "gitfn-b")).isNull();
  }

  @Test
  void aPodThatIsGoneIsNoError(KubernetesClient client, TestNamespace ns) {
    new LeaderPod(client, ns.name(), "never-existed", "gitfn").unmark();
  }

  private static String leaderLabel(KubernetesClient client, TestNamespace ns, String pod) {
    var labels = client.pods().inNamespace(ns.name()).withName(pod).get().getMetadata().getLabels();
    return labels == null ? null : labels.get(Labels.LEADER);
  }

  private static Pod pod(TestNamespace ns, String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns.name()).addToLabels("app", "gitfn")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("gitfn").endContainer().endSpec()
        .build();
  }
}
