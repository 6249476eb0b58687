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
import java.util.Map;

/**
 * The node's OCI registry (CNCF Distribution v3) on the bridge's host address, plain HTTP, storing under the
 * run directory: reachable from the host, from Pods and from containerd, which is told to pull from it over
 * HTTP (see {@link Containerd}).
 */
final class Registry {

  private Registry() {}

  /** Starts the registry and waits until {@code /v2/} answers; returns its process and its {@code host:port}. */
  static Started start(Path binary, Path dir, Duration timeout) {
    String address = NodeNetwork.HOST_ADDRESS + ":" + FreePorts.next();
    Path config = dir.resolve("registry.yml");
    try {
      Files.createDirectories(dir.resolve("registry"));
      Files.writeString(config, """
          version: 0.1
          log:
            level: info
          storage:
            filesystem:
              rootdirectory: %s
            delete:
              enabled: true
            maintenance:
              uploadpurging:
                enabled: false
          http:
            addr: %s
          health:
            storagedriver:
              enabled: false
          """.formatted(dir.resolve("registry"), address));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ComponentProcess registry = ComponentProcess.start(
        "registry",
        dir.resolve("logs/registry.log"),
        List.of(binary.toString(), "serve", config.toString()),
        // Tracing would export to an OTLP collector on localhost:4318 that is not there.
        Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_SDK_DISABLED", "true"));
    ControlPlane.waitFor(registry, timeout, () -> ControlPlane.httpOk("http://" + address + "/v2/", null));
    return new Started(registry, address);
  }

  record Started(ComponentProcess process, String address) {}
}
