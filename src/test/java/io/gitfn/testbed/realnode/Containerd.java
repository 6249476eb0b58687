package io.gitfn.testbed.realnode;

import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.ControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * containerd (Debian's 1.6) with everything it keeps under the run directory: root, state, socket, runc's
 * state, network namespaces, CNI configuration and the registry hosts. Its CRI plugin serves kubelet; Pods get
 * the CNI bridge network of {@link NodeNetwork} and the locally built {@link #PAUSE_IMAGE}. It pulls from the node's
 * registry only, which also answers for {@value #DOCKER_HUB}.
 */
final class Containerd {

  /** The sandbox image, imported from a local archive: containerd never pulls it. */
  static final String PAUSE_IMAGE = "localhost/gitfn-pause:1";
  /** The registry of image names without one; containerd sends its pulls to the node's registry instead. */
  static final String DOCKER_HUB = "docker.io";
  /** Nothing listens on the discard port: a pull from anywhere but the node's registry fails on this machine. */
  private static final String NO_SUCH_PROXY = "http://127.0.0.1:9";

  private final Path runDir;
  private final ComponentProcess process;

  private Containerd(Path runDir, ComponentProcess process) {
    this.runDir = runDir;
    this.process = process;
  }

  static Path socket(Path runDir) {
    return runDir.resolve("containerd/containerd.sock");
  }

  /** Writes the configuration, starts containerd and waits for its API; then imports the pause image. */
  static Containerd start(Path runDir, String registry, Path pauseArchive, Duration timeout) {
    Path dir = runDir.resolve("containerd");
    writeConfiguration(runDir, dir, registry);
    ComponentProcess process = ComponentProcess.start(
        "containerd",
        runDir.resolve("logs/containerd.log"),
        List.of("containerd", "--config", dir.resolve("config.toml").toString()),
        Map.of("HTTP_PROXY", NO_SUCH_PROXY, "HTTPS_PROXY", NO_SUCH_PROXY,
            "NO_PROXY", NodeNetwork.POD_SUBNET + ",127.0.0.1,localhost"));
    Containerd containerd = new Containerd(runDir, process);
    try {
      ControlPlane.waitFor(process, timeout, () -> containerd.ctr(Duration.ofSeconds(5), "version") == 0);
      int imported = containerd.ctr(Duration.ofSeconds(60), "-n", "k8s.io", "images", "import", pauseArchive.toString());
      if (imported != 0) {
        throw process.failure("could not import the pause image from " + pauseArchive
            + " (ctr's output is in " + runDir.resolve("logs/ctr.log") + ")");
      }
      return containerd;
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  private static void writeConfiguration(Path runDir, Path dir, String registry) {
    Path netconf = runDir.resolve("cni/net.d");
    Path hosts = dir.resolve("certs.d");
    try {
      Files.createDirectories(netconf);
      Files.createDirectories(hosts);
      // disabled_plugins: the opt plugin would create /opt/containerd; the other snapshotters are not used.
      // restrict_oom_score_adj: this machine refuses the -998 that the sandbox would set otherwise, and every
      // sandbox fails with "can't get final child's PID from pipe: EOF".
      // netns_mounts_under_state_dir: the Pods' network namespaces stay under the run directory, not /run/netns.
      Files.writeString(dir.resolve("config.toml"), """
          version = 2
          root = "%1$s/root"
          state = "%1$s/state"
          disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.aufs",
            "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper",
            "io.containerd.snapshotter.v1.zfs", "io.containerd.tracing.processor.v1.otlp"]

          [grpc]
            address = "%1$s/containerd.sock"

          [plugins."io.containerd.grpc.v1.cri"]
            sandbox_image = "%2$s"
            restrict_oom_score_adj = true
            netns_mounts_under_state_dir = true
            disable_apparmor = true
            stream_server_address = "127.0.0.1"
            stream_server_port = "0"

            [plugins."io.containerd.grpc.v1.cri".cni]
              bin_dir = "/usr/lib/cni"
              conf_dir = "%3$s"

            [plugins."io.containerd.grpc.v1.cri".containerd]
              snapshotter = "overlayfs"
              default_runtime_name = "runc"

              [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
                runtime_type = "io.containerd.runc.v2"

                [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
                  SystemdCgroup = false
                  Root = "%1$s/runc"

            [plugins."io.containerd.grpc.v1.cri".registry]
              config_path = "%4$s"
          """.formatted(dir, PAUSE_IMAGE, netconf, hosts));
      // Plain HTTP to the node's registry, for pulls and resolves. docker.io goes there too: images that Kyma's
      // tests name without a registry (nginx, so docker.io/library/nginx:latest) are what a test pushed as
      // library/nginx:latest. Any other registry stays unreachable.
      for (String name : List.of(registry, DOCKER_HUB)) {
        Files.createDirectories(hosts.resolve(name));
        Files.writeString(hosts.resolve(name).resolve("hosts.toml"), """
            server = "http://%1$s"

            [host."http://%1$s"]
              capabilities = ["pull", "resolve"]
            """.formatted(registry));
      }
      // The Pods' network: the bridge network-up.sh made, addresses from host-local, kept under the run directory.
      // containerd adds the loopback plugin itself.
      Files.writeString(netconf.resolve("10-gitfn-realnode.conflist"), """
          {
            "cniVersion": "1.0.0",
            "name": "%s",
            "plugins": [
              {
                "type": "bridge",
                "bridge": "%s",
                "isGateway": true,
                "hairpinMode": true,
                "ipMasq": false,
                "ipam": {
                  "type": "host-local",
                  "ranges": [[{"subnet": "%s", "gateway": "%s", "rangeStart": "%s"}]],
                  "routes": [{"dst": "0.0.0.0/0"}],
                  "dataDir": "%s"
                }
              }
            ]
          }
          """.formatted(NodeNetwork.CNI_NETWORK, NodeNetwork.BRIDGE, NodeNetwork.POD_SUBNET,
              NodeNetwork.HOST_ADDRESS, NodeNetwork.FIRST_POD_ADDRESS, runDir.resolve("cni/ipam")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code ctr} against this containerd; its output goes to logs/ctr.log. Returns the exit code, -1 on timeout. */
  int ctr(Duration timeout, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("ctr", "--address", socket(runDir).toString()));
    command.addAll(List.of(args));
    try {
      Path log = runDir.resolve("logs/ctr.log");
      Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
      Process ctr = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      if (!ctr.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        ctr.destroyForcibly();
        return -1;
      }
      return ctr.exitValue();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run ctr", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  ComponentProcess process() {
    return process;
  }
}
