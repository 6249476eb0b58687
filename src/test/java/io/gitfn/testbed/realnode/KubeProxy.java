package io.gitfn.testbed.realnode;

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
 * kube-proxy in iptables mode (iptables-nft on this machine; no IPVS): ClusterIPs and NodePorts of the node's
 * Services. Configured to change no host setting it need not: no conntrack sysctls, no route_localnet, NodePorts
 * only on the bridge's host address.
 */
final class KubeProxy {

  private KubeProxy() {}

  static ComponentProcess start(Path binary, ControlPlane plane, Path runDir, Duration timeout) {
    Path config = runDir.resolve("kube-proxy.yaml");
    int healthz = FreePorts.next();
    int metrics = FreePorts.next();
    try {
      Files.writeString(config, """
          apiVersion: kubeproxy.config.k8s.io/v1alpha1
          kind: KubeProxyConfiguration
          mode: iptables
          clientConnection:
            kubeconfig: %1$s
          hostnameOverride: %2$s
          clusterCIDR: %3$s
          detectLocalMode: ClusterCIDR
          healthzBindAddress: 127.0.0.1:%4$d
          metricsBindAddress: 127.0.0.1:%5$d
          nodePortAddresses: ["%6$s/32"]
          iptables:
            localhostNodePorts: false
          # Zero keeps the machine's conntrack settings (nf_conntrack_max is not ours to change on a shared machine).
          conntrack:
            maxPerCore: 0
            tcpEstablishedTimeout: 0s
            tcpCloseWaitTimeout: 0s
          """.formatted(plane.kubeconfig(), NodeNetwork.NODE_NAME, NodeNetwork.POD_SUBNET, healthz, metrics,
              NodeNetwork.HOST_ADDRESS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess proxy = ComponentProcess.start(
        "kube-proxy",
        runDir.resolve("logs/kube-proxy.log"),
        List.of(binary.toString(), "--config=" + config, "--v=1"));
    try {
      ControlPlane.waitFor(proxy, timeout, () -> ControlPlane.httpOk("http://127.0.0.1:" + healthz + "/healthz", null));
      return proxy;
    } catch (RuntimeException e) {
      proxy.close();
      throw e;
    }
  }
}
