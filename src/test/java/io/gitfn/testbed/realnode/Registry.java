package io.gitfn.testbed.realnode;

import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.OciRegistry;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The node's OCI registry (CNCF Distribution v3) on the bridge's host address, plain HTTP, storing under the
 * run directory: reachable from the host, from Pods and from containerd, which is told to pull from it over
 * HTTP (see {@link Containerd}).
 */
final class Registry {

  private Registry() {}

  /** Starts the registry and waits until {@code /v2/} answers; returns its process and its {@code host:port}. */
  static Started start(Path binary, Path dir, Duration timeout) {
    OciRegistry registry = OciRegistry.start(binary, dir, NodeNetwork.HOST_ADDRESS, timeout);
    return new Started(registry.process(), registry.address());
  }

  record Started(ComponentProcess process, String address) {}
}
