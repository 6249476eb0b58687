package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What turns an API server into a cluster that runs workloads: kube-controller-manager (Deployments,
 * ReplicaSets, Jobs, namespaces, service accounts), kube-scheduler, and kwok with one fake node, whose
 * Pods become Ready and whose Job Pods complete, or fail and take their time as {@link KwokBuildStages} says.
 */
final class ClusterComponents implements AutoCloseable {

  static final String NODE_NAME = "kwok-node-0";
  /** kwok manages only nodes with this annotation, never a real one. */
  static final String KWOK_NODE_ANNOTATION = "kwok.x-k8s.io/node";

  /**
   * The client-side rate limits kwokctl sets when it disables them. The defaults (20 requests/s for the
   * controller-manager, 50 for the scheduler) would make the cluster, not gitfn, the bound of any test or benchmark
   * with thousands of Pods; kwok itself has no limit.
   */
  private static final String UNLIMITED_QPS = "--kube-api-qps=5000";
  private static final String UNLIMITED_BURST = "--kube-api-burst=10000";

  private final List<ComponentProcess> processes = new ArrayList<>();

  static ClusterComponents start(
      TestBedBinaries binaries, ControlPlane plane, Path dir, Duration timeout) {
    ClusterComponents cluster = new ClusterComponents();
    try {
      cluster.startControllerManager(binaries, plane, timeout);
      cluster.startScheduler(binaries, plane, timeout);
      cluster.startKwok(binaries, plane, dir);
      cluster.addFakeNode(plane, timeout);
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void startControllerManager(TestBedBinaries binaries, ControlPlane plane, Duration timeout) {
    processes.add(
        plane.startControlLoop(
            "kube-controller-manager",
            binaries,
            timeout,
            "--service-account-private-key-file=" + plane.serviceAccountKey(),
            "--root-ca-file=" + plane.caCertificate(),
            "--use-service-account-credentials=false",
            "--cluster-cidr=10.244.0.0/16",
            UNLIMITED_QPS,
            UNLIMITED_BURST));
  }

  private void startScheduler(TestBedBinaries binaries, ControlPlane plane, Duration timeout) {
    processes.add(plane.startControlLoop("kube-scheduler", binaries, timeout, UNLIMITED_QPS, UNLIMITED_BURST));
  }

  private void startKwok(TestBedBinaries binaries, ControlPlane plane, Path dir) {
    processes.add(
        ComponentProcess.start(
            "kwok",
            dir.resolve("logs/kwok.log"),
            List.of(
                binaries.binary("kwok").toString(),
                "--kubeconfig=" + plane.kubeconfig(),
                // kwok takes --config more than once and loads the Stages of every file.
                "--config=" + binaries.kwokStages(),
                "--config=" + KwokBuildStages.writeTo(dir),
                "--manage-all-nodes=false",
                "--manage-nodes-with-annotation-selector=" + KWOK_NODE_ANNOTATION + "=fake",
                // The heartbeat stage updates node status only every ~10 minutes and counts on a Lease in between,
                // as kwokctl sets up; without one the node goes NotReady after the 50 s grace period, and the
                // node controller marks every Pod on it NotReady for good.
                "--node-lease-duration-seconds=40",
                "--node-ip=127.0.0.1",
                "--cidr=10.244.0.0/16")));
  }

  private void addFakeNode(ControlPlane plane, Duration timeout) {
    // CPU and memory for 20,000 Pods at gitfn's default requests (a build 500m/700Mi, a Function 400m/512Mi): with
    // less, the scheduler, not the controller, would bound how many Functions a test or the scale benchmark can run.
    Map<String, Quantity> capacity =
        Map.of("cpu", new Quantity("10000"), "memory", new Quantity("20Ti"), "pods", new Quantity("20000"));
    Node node =
        new NodeBuilder()
            .withNewMetadata()
            .withName(NODE_NAME)
            .withAnnotations(Map.of(KWOK_NODE_ANNOTATION, "fake", "node.alpha.kubernetes.io/ttl", "0"))
            .withLabels(
                Map.of(
                    "type", "kwok",
                    "kubernetes.io/hostname", NODE_NAME,
                    "kubernetes.io/os", "linux",
                    "kubernetes.io/arch", "amd64"))
            .endMetadata()
            .withNewStatus()
            .withCapacity(capacity)
            .withAllocatable(capacity)
            .endStatus()
            .build();
    ComponentProcess kwok = processes.get(processes.size() - 1);
    try (KubernetesClient client = plane.newClient()) {
      // Applied, not created: a node left in etcd by an earlier failed start must not fail this one.
      client.nodes().resource(node).fieldManager("gitfn-testbed").forceConflicts().serverSideApply();
      ControlPlane.waitFor(kwok, timeout, () -> nodeReady(client));
    }
  }

  private static boolean nodeReady(KubernetesClient client) {
    Node node = client.nodes().withName(NODE_NAME).get();
    return node != null
        && node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  List<ComponentProcess> processes() {
    return processes;
  }

  @Override
  public void close() {
    ComponentProcess.closeAll(processes);
  }
}
