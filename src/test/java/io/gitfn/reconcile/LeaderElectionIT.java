package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.TestNamespace;
import io.gitfn.testbed.WithKubeApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two {@code gitfn controller --leader-elect} processes against the test bed's API server: one leads and
 * reconciles, the other stands by; the standby takes over within 15 s of the leader's {@code kill -9}, and at once
 * when the leader is stopped with TERM, which releases the Lease and exits 0.
 */
@WithKubeApi
class LeaderElectionIT {

  private static final String LEASE = "gitfn-le-test";
  private static final Duration FAILOVER = Duration.ofSeconds(15);

  @Test
  void oneInstanceLeadsAndTheOtherTakesOverWhenItDies(KubeTestBed bed, KubernetesClient client, TestNamespace ns)
      throws Exception {
    bed.installCrds();
    Path dir = Files.createTempDirectory("gitfn-leader-election");
    List<String> flags = List.of("--leader-elect", "--leader-election-namespace", ns.name(), "--leader-election-id",
        LEASE, "--shutdown-timeout", "5s");
    List<String> json = new java.util.ArrayList<>(flags);
    json.addAll(List.of("--log-format", "json"));
    // Each instance runs "in" a Pod of its own, as the chart's Deployment runs it, and labels it while it leads.
    client.resource(new ServiceAccountBuilder().withNewMetadata().withName("default").withNamespace(ns.name())
        .endMetadata().build()).createOr(existing -> existing.update());
    for (String pod : List.of("first", "second")) {
      client.resource(new PodBuilder().withNewMetadata().withName(pod).withNamespace(ns.name()).endMetadata()
          .withNewSpec().addNewContainer().withName("controller").withImage("gitfn").endContainer().endSpec()
          .build()).create();
    }
    try (ControllerJvm first = ControllerJvm.start("first", bed.kubeconfig(), dir, flags,
            Map.of("POD_NAME", "first", "POD_NAMESPACE", ns.name()));
        ControllerJvm second = ControllerJvm.start("second", bed.kubeconfig(), dir, json,
            Map.of("POD_NAME", "second", "POD_NAMESPACE", ns.name()))) {
      await().atMost(Duration.ofSeconds(30)).until(() -> holder(client, ns) != null);
      ControllerJvm leader = holder(client, ns).equals(first.instance()) ? first : second;
      ControllerJvm standby = leader == first ? second : first;
      String leaderPod = leader == first ? "first" : "second";
      String standbyPod = leader == first ? "second" : "first";
      assertThat(holder(client, ns)).isIn(first.instance(), second.instance());
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(leaderLabel(client, ns, leaderPod)).as("the webhook Service selects the leader's Pod")
            .isEqualTo(LEASE);
        assertThat(leaderLabel(client, ns, standbyPod)).isNull();
      });

      client.resource(function(ns, "before")).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled(client, ns, "before"));
      assertThat(leader.get("metrics").body()).contains("gitfn_reconcile_seconds_count{kind=\"Function\"");
      assertThat(standby.get("metrics").body()).doesNotContain("gitfn_reconcile_seconds_count");
      assertThat(standby.log()).doesNotContain("leading: this instance");
      // The standby is ready (warm caches, see docs/operations.md) but says so.
      assertThat(standby.get("readyz").statusCode()).isEqualTo(200);
      assertThat(standby.get("readyz").body()).contains("standby");
      // A standby tracks no source: it must not answer "nothing to trigger" for a push the leader would take.
      assertThat(standby.ping().statusCode()).isEqualTo(503);
      assertThat(leader.ping().statusCode()).isEqualTo(200);
      assertThat(standby.get("metrics").body())
          .containsPattern("gitfn_webhook_deliveries_total\\{forge=\"github\",result=\"standby\"} 1");
      assertThat(second.log().lines().filter(l -> l.contains("Lease"))).isNotEmpty()
          .allSatisfy(l -> assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(l).get("message")
              .asText()).contains("Lease"));

      long killed = System.nanoTime();
      leader.kill();
      client.resource(function(ns, "after-kill")).create();
      await().atMost(FAILOVER).until(() -> reconciled(client, ns, "after-kill"));
      assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(FAILOVER);
      assertThat(holder(client, ns)).isEqualTo(standby.instance());
      assertThat(standby.log()).contains("leading: this instance (" + standby.instance() + ")");
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(leaderLabel(client, ns, standbyPod)).as("the new leader's Pod").isEqualTo(LEASE);
        assertThat(leaderLabel(client, ns, leaderPod)).as("taken from the Pod whose instance was killed").isNull();
      });
    }
  }

  @Test
  void aLeaderStoppedWithTermHandsTheLeaseOverAtOnceAndExitsZero(KubeTestBed bed, KubernetesClient client,
      TestNamespace ns) throws Exception {
    bed.installCrds();
    Path dir = Files.createTempDirectory("gitfn-leader-handover");
    List<String> flags = List.of("--leader-elect", "--leader-election-namespace", ns.name(), "--leader-election-id",
        LEASE, "--shutdown-timeout", "5s");
    try (ControllerJvm first = ControllerJvm.start("leader", bed.kubeconfig(), dir, flags)) {
      await().atMost(Duration.ofSeconds(30)).until(() -> first.instance().equals(holder(client, ns)));
      try (ControllerJvm second = ControllerJvm.start("successor", bed.kubeconfig(), dir, flags)) {
        assertThat(holder(client, ns)).isEqualTo(first.instance());

        long stopped = System.nanoTime();
        assertThat(first.terminate(Duration.ofSeconds(20))).as("exit code; log:\n%s", first.tail()).isZero();
        client.resource(function(ns, "after-term")).create();
        // The lease is released: the successor's next try (every 2 s) takes it, no 10 s expiry to wait for.
        await().atMost(Duration.ofSeconds(8)).until(() -> reconciled(client, ns, "after-term"));
        assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofSeconds(8));
        assertThat(holder(client, ns)).isEqualTo(second.instance());
        assertThat(first.log()).contains("released Lease " + ns.name() + "/" + LEASE).contains("stopped");
      }
    }
  }

  private static String holder(KubernetesClient client, TestNamespace ns) {
    Lease lease = client.leases().inNamespace(ns.name()).withName(LEASE).get();
    String holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null || holder.isEmpty() ? null : holder;
  }

  private static String leaderLabel(KubernetesClient client, TestNamespace ns, String pod) {
    var labels = client.pods().inNamespace(ns.name()).withName(pod).get().getMetadata().getLabels();
    return labels == null ? null : labels.get(Labels.LEADER);
  }

  static boolean reconciled(KubernetesClient client, TestNamespace ns, String name) {
    Function fn = client.resources(Function.class).inNamespace(ns.name()).withName(name).get();
    return fn != null && fn.getStatus() != null && fn.getStatus().getConditions() != null
        && !fn.getStatus().getConditions().isEmpty();
  }

  static Function function(TestNamespace ns, String name) {
    return TestFunction.inline().named(name).inNamespace(ns.name()).uid(null)
        .code("module.exports = { main: () => 'hi' };").build();
  }

}
