package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.ControlPlane;
import io.gitfn.testbed.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * kubelet for the node {@link NodeNetwork#NODE_NAME}, on containerd's CRI, with every folder it may choose under
 * the run directory. It listens on the bridge's host address (the apiserver reaches it there for logs and exec)
 * and allows anonymous requests; {@code network-up.sh} keeps Pods off its port, so only the host reaches it.
 */
final class Kubelet {

  private Kubelet() {}

  /** The port kubelet serves on; network-up.sh needs it before kubelet starts. */
  static int choosePort() {
    return FreePorts.next();
  }

  static ComponentProcess start(Path binary, ControlPlane plane, Path runDir, int port, Duration timeout) {
    Path dir = runDir.resolve("kubelet");
    Path config = dir.resolve("config.yaml");
    int healthz = FreePorts.next();
    try {
      Files.createDirectories(dir);
      Files.writeString(config, """
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          address: %1$s
          port: %2$d
          readOnlyPort: 0
          healthzBindAddress: 127.0.0.1
          healthzPort: %3$d
          authentication:
            anonymous:
              enabled: true
            webhook:
              enabled: false
          authorization:
            mode: AlwaysAllow
          containerRuntimeEndpoint: unix://%4$s
          # cgroup v1 here, and containerd 1.6 cannot tell kubelet its cgroup driver: kubelet falls back to this one.
          cgroupDriver: cgroupfs
          failCgroupV1: false
          cgroupsPerQOS: true
          enforceNodeAllocatable: [pods]
          failSwapOn: false
          podLogsDir: %5$s/pod-logs
          volumePluginDir: %5$s/volume-plugins
          # The node's CoreDNS is a Pod's only name server; no resolv.conf of the host's, so none of its servers or
          # search domains reaches a Pod.
          clusterDNS: ["%6$s"]
          clusterDomain: %7$s
          resolvConf: ""
          # The hint chain and the localnet DROP matter only with route_localnet, which kube-proxy leaves off here.
          makeIPTablesUtilChains: false
          serializeImagePulls: false
          # A shared test machine's disk and memory are not the node's to guard: evict only when nearly full.
          evictionHard:
            memory.available: 100Mi
            nodefs.available: 1%%
            nodefs.inodesFree: 1%%
            imagefs.available: 1%%
          imageGCHighThresholdPercent: 99
          imageGCLowThresholdPercent: 98
          """.formatted(NodeNetwork.HOST_ADDRESS, port, healthz, Containerd.socket(runDir), dir,
              NodeNetwork.HOST_ADDRESS, NodeNetwork.CLUSTER_DOMAIN));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess kubelet = ComponentProcess.start(
        "kubelet",
        runDir.resolve("logs/kubelet.log"),
        List.of(
            binary.toString(),
            "--config=" + config,
            "--kubeconfig=" + plane.kubeconfig(),
            "--root-dir=" + dir.resolve("root"),
            "--cert-dir=" + dir.resolve("pki"),
            "--hostname-override=" + NodeNetwork.NODE_NAME,
            "--node-ip=" + NodeNetwork.HOST_ADDRESS,
            "--v=1"));
    try (KubernetesClient client = plane.newClient()) {
      ControlPlane.waitFor(kubelet, timeout, () -> ready(client.nodes().withName(NodeNetwork.NODE_NAME).get()));
      return kubelet;
    } catch (RuntimeException e) {
      kubelet.close();
      throw e;
    }
  }

  static boolean ready(Node node) {
    return node != null
        && node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
