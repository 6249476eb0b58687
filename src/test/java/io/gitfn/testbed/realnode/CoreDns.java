package io.gitfn.testbed.realnode;

import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.ControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The node's cluster DNS: CoreDNS on the bridge's host address, port 53 (UDP and TCP), which kubelet gives Pods as
 * their only name server. It answers {@code <service>.<namespace>.svc.cluster.local} with the Service's ClusterIP
 * from the API, and NXDOMAIN for every other name: Pods reach nothing outside this machine, so forwarding would only
 * make a lookup wait. NXDOMAIN rather than REFUSED, which musl's resolver does not take for an answer and so waits
 * out its timeout.
 */
final class CoreDns {

  private CoreDns() {}

  static ComponentProcess start(Path binary, ControlPlane plane, Path runDir, Duration timeout) {
    Path corefile = runDir.resolve("Corefile");
    try {
      Files.writeString(corefile, """
          %2$s:53 {
            bind %1$s
            errors
            kubernetes %2$s {
              kubeconfig %3$s
            }
          }
          .:53 {
            bind %1$s
            errors
            template ANY ANY {
              rcode NXDOMAIN
            }
          }
          """.formatted(NodeNetwork.HOST_ADDRESS, NodeNetwork.CLUSTER_DOMAIN, plane.kubeconfig()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess coreDns = ComponentProcess.start(
        "coredns", runDir.resolve("logs/coredns.log"), List.of(binary.toString(), "-conf", corefile.toString()));
    try {
      // Answered once the kubernetes plugin has read the Services: it serves before that, without them.
      ControlPlane.waitFor(coreDns, timeout, () -> answers("kubernetes.default.svc." + NodeNetwork.CLUSTER_DOMAIN)
          .equals(List.of(NodeNetwork.KUBERNETES_SERVICE_ADDRESS)));
      return coreDns;
    } catch (RuntimeException e) {
      coreDns.close();
      throw e;
    }
  }

  /** The addresses the node's DNS gives for {@code name}; none while it does not answer. */
  static List<String> answers(String name) {
    try {
      return DnsQuery.ask(NodeNetwork.HOST_ADDRESS, name, 1000).addresses();
    } catch (IOException e) {
      return List.of();
    }
  }
}
