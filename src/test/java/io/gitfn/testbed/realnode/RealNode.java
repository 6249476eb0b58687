package io.gitfn.testbed.realnode;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.testbed.ComponentProcess;
import io.gitfn.testbed.ControlPlane;
import io.gitfn.testbed.KubeTestBed;
import io.gitfn.testbed.OciRegistry;
import io.gitfn.testbed.TestBedBinaries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes cluster with one real node, on this machine: etcd, kube-apiserver, controller-manager and
 * scheduler of its own (apart from the shared API-only and kwok test bed), containerd, kubelet, kube-proxy and
 * CNI, an OCI registry and cluster DNS ({@link CoreDns}). Pods really run, pull their images over HTTP from
 * {@link #registry()}, live on a bridge ({@link NodeNetwork}), reach only the host and each other, and find Services
 * by name ({@code <service>.<namespace>.svc.cluster.local}).
 *
 * <p>It needs root. Everything it changes on the machine (the bridge, iptables and nftables rules, mounts,
 * network namespaces, cgroups, sysctls) is undone by {@code teardown.sh}, which {@link #close()} runs and which
 * {@link NodeGuard} runs again when the JVM is gone, however it ended. One real node runs per machine.
 */
public final class RealNode implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(RealNode.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  /** sun_path holds 108 bytes with the terminating NUL. */
  static final int SOCKET_PATH_LIMIT = 107;
  /**
   * The longest socket kubelet makes under its root. It binds a temporary name of nine digits first, which is the
   * one that failed with {@code bind: invalid argument} when the path was too long.
   */
  private static final String LONGEST_SOCKET = "kubelet/root/pod-resources/kubelet.sock";
  private static RealNode shared;
  private static RuntimeException sharedStartFailure;
  private static boolean stopHookAdded;

  private final Path dir;
  private final NodeGuard guard;
  private final List<ComponentProcess> processes = new ArrayList<>();
  private ControlPlane plane;
  private String registry;
  private Traefik ingressController;
  private boolean closed;

  private RealNode(Path dir, NodeGuard guard) {
    this.dir = dir;
    this.guard = guard;
  }

  /** The JVM's real node, started on first use. */
  public static synchronized RealNode shared() {
    if (sharedStartFailure != null) {
      throw new IllegalStateException("the real node failed to start earlier in this JVM", sharedStartFailure);
    }
    if (shared == null) {
      try {
        shared = start(newRunDirectory());
      } catch (RuntimeException e) {
        sharedStartFailure = e;
        throw e;
      }
      if (!stopHookAdded) {
        Runtime.getRuntime().addShutdownHook(new Thread(RealNode::stopShared, "real-node-stop"));
        stopHookAdded = true;
      }
    }
    return shared;
  }

  /**
   * Tears the JVM's real node down, if it runs; a later {@link #shared()} starts a new one. For tests that need
   * the machine without a node, such as the one that starts a node in another JVM.
   */
  public static synchronized void stopShared() {
    if (shared != null) {
      shared.close();
      shared = null;
    }
  }

  /** A real node of its own in {@code dir}; the caller closes it. */
  public static RealNode start(Path dir) {
    long started = System.nanoTime();
    requireShortEnoughForSockets(dir);
    HostTools.verify();
    NodeBinaries binaries = NodeBinaries.locate();
    int kubeletPort = Kubelet.choosePort();
    Path pause = OciArchive.image(Containerd.PAUSE_IMAGE)
        .file("pause", StaticBinary.compile(RealNode.class, "pause.c", dir.resolve("images/pause")), 0755)
        .entrypoint("/pause")
        .writeTo(dir.resolve("images/pause.tar"));
    NodeGuard guard = NodeGuard.start(
        dir,
        Map.of(
            "BRIDGE", NodeNetwork.BRIDGE,
            "BRIDGE_MAC", NodeNetwork.BRIDGE_MAC,
            "HOST_ADDRESS", NodeNetwork.HOST_ADDRESS,
            "POD_SUBNET", NodeNetwork.POD_SUBNET,
            "SERVICE_RANGE", NodeNetwork.SERVICE_RANGE,
            "CNI_NETWORK", NodeNetwork.CNI_NETWORK,
            "KUBELET_PORT", Integer.toString(kubeletPort),
            "KUBE_PROXY", binaries.kubeProxy().toString(),
            "LOCK", TestBedBinaries.cacheDir().resolve("realnode.lock").toString()),
        START_TIMEOUT);
    Timings timings = new Timings(started);
    timings.mark("host (guard, bridge, rules) and pause image");
    RealNode node = new RealNode(dir, guard);
    try {
      node.startControlPlane(binaries.testBed(), timings);
      node.startNode(binaries, pause, kubeletPort, timings);
    } catch (RuntimeException e) {
      node.close();
      throw e;
    }
    log.info("real node {} ready at {} in {} ms ({}), registry {} (logs in {})",
        NodeNetwork.NODE_NAME, node.plane.url(), timings.total(), timings, node.registry, dir.resolve("logs"));
    return node;
  }

  private void startControlPlane(TestBedBinaries binaries, Timings timings) {
    plane = ControlPlane.start(binaries, dir, START_TIMEOUT, new ControlPlane.Options(
        NodeNetwork.HOST_ADDRESS,
        NodeNetwork.SERVICE_RANGE,
        // The apiserver reaches kubelet, for logs and exec, at the address kubelet reports as InternalIP.
        List.of("--kubelet-preferred-address-types=InternalIP")));
    timings.mark("etcd and apiserver");
    processes.add(plane.startControlLoop(
        "kube-controller-manager", binaries, START_TIMEOUT,
        "--service-account-private-key-file=" + plane.serviceAccountKey(),
        "--root-ca-file=" + plane.caCertificate(),
        "--use-service-account-credentials=false"));
    processes.add(plane.startControlLoop("kube-scheduler", binaries, START_TIMEOUT));
    timings.mark("controller-manager and scheduler");
  }

  private void startNode(NodeBinaries binaries, Path pause, int kubeletPort, Timings timings) {
    // On the bridge's host address: reachable from the host, from Pods and from containerd, which pulls from it
    // over plain HTTP (see Containerd).
    OciRegistry started = OciRegistry.start(binaries.registry(), dir, NodeNetwork.HOST_ADDRESS, START_TIMEOUT);
    processes.add(started.process());
    registry = started.address();
    timings.mark("registry");
    processes.add(Containerd.start(dir, registry, pause, START_TIMEOUT).process());
    timings.mark("containerd with the pause image");
    processes.add(CoreDns.start(binaries.coreDns(), plane, dir, START_TIMEOUT));
    timings.mark("coredns");
    processes.add(Kubelet.start(binaries.kubelet(), plane, dir, kubeletPort, START_TIMEOUT));
    timings.mark("kubelet until the node is Ready");
    processes.add(KubeProxy.start(binaries.kubeProxy(), plane, dir, START_TIMEOUT));
    timings.mark("kube-proxy");
  }

  /** How long each step of the start took, for the log line that says the node is ready. */
  private static final class Timings {
    private final long started;
    private long last;
    private final List<String> steps = new ArrayList<>();

    Timings(long started) {
      this.started = started;
      this.last = started;
    }

    void mark(String step) {
      long now = System.nanoTime();
      steps.add(step + " " + (now - last) / 1_000_000 + " ms");
      last = now;
    }

    long total() {
      return (last - started) / 1_000_000;
    }

    @Override
    public String toString() {
      return String.join(", ", steps);
    }
  }

  /**
   * The node's ingress controller ({@link Traefik}), for Ingresses and Gateway API HTTPRoutes: started on first use,
   * with the Gateway API's CRDs, and stopped with the node. A test that takes a {@link Traefik} parameter under
   * {@link WithRealNode} gets this one. Fails, saying why, when Traefik is not built or does not start.
   */
  public synchronized Traefik ingressController() {
    if (ingressController == null) {
      long started = System.nanoTime();
      ingressController = Traefik.start(this, START_TIMEOUT);
      processes.add(ingressController.process());
      log.info("ingress controller (Traefik) ready at {} in {} ms, the Gateway API's CRDs included (log {})",
          ingressController.baseUrl(), (System.nanoTime() - started) / 1_000_000, dir.resolve("logs/traefik.log"));
    }
    return ingressController;
  }

  /** A new client for the admin user; the caller closes it. */
  public KubernetesClient newClient() {
    return plane.newClient();
  }

  /** A kubeconfig file for the admin user, for tools and child processes. */
  public Path kubeconfig() {
    return plane.kubeconfig();
  }

  public Config config() {
    return plane.config();
  }

  /**
   * The host's address on the bridge: where Pods reach servers the test JVM runs. Bind them to it, or to
   * 0.0.0.0.
   */
  public String hostAddress() {
    return NodeNetwork.HOST_ADDRESS;
  }

  /** {@code host:port} of the node's registry, plain HTTP: reachable from the host, from Pods and from containerd. */
  public String registry() {
    return registry;
  }

  /** The node's name in the API. */
  public String nodeName() {
    return NodeNetwork.NODE_NAME;
  }

  /** Where the node keeps its configuration, data and logs ({@code logs/}). */
  public Path runDirectory() {
    return dir;
  }

  /** Applies config/crd/*.yml to this cluster and waits until each CRD is Established; returns their names. */
  public List<String> installCrds() {
    try (KubernetesClient client = newClient()) {
      return KubeTestBed.installCrds(client);
    }
  }

  /**
   * Puts a local OCI archive (see {@link OciArchive}) into the registry as {@code registry()/reference}, for
   * example {@code pushImage(archive, "tests/hello:1")}; Pods then run {@code registry() + "/tests/hello:1"}.
   */
  public void pushImage(Path ociArchive, String reference) {
    OciRegistry.push(registry, ociArchive, reference);
  }

  /**
   * What the host counted about Pod-to-host traffic, for a test whose Pod could not reach a server here: the
   * packets the isolation rules dropped, the host's listen-queue drops, conntrack's drops, and the registry's last
   * requests. Each part says so when it cannot be read; this never throws.
   */
  public String networkCounters() {
    StringBuilder counters = new StringBuilder();
    for (List<String> command : List.of(
        List.of("iptables", "-w", "5", "-t", "mangle", "-L", "GITFN-REALNODE-INPUT", "-v", "-n", "-x"),
        List.of("iptables", "-w", "5", "-t", "mangle", "-L", "GITFN-REALNODE-FORWARD", "-v", "-n", "-x"),
        List.of("iptables", "-w", "5", "-t", "filter", "-L", "INPUT", "-v", "-n", "-x"),
        List.of("nstat", "-az", "TcpExtListenOverflows", "TcpExtListenDrops", "TcpExtTCPTimeouts"),
        List.of("conntrack", "-S"),
        List.of("tail", "-n", "15", dir.resolve("logs/registry.log").toString()))) {
      counters.append("\n$ ").append(String.join(" ", command)).append('\n');
      try {
        counters.append(HostCommand.run(command.toArray(String[]::new)));
      } catch (RuntimeException e) {
        counters.append("(").append(e.getMessage()).append(")\n");
      }
    }
    return counters.toString();
  }


  /**
   * Process ids of the node's guard, servers and their guards (this JVM's descendants), for tests of the node
   * itself. Not the containerd shims and containers: they leave the process tree, the teardown finds them.
   */
  public List<Long> processIds() {
    return ProcessHandle.current().descendants().map(ProcessHandle::pid).toList();
  }

  /**
   * Runs the teardown (processes, Pods, rules, mounts, bridge, cgroups, sysctls) and releases the machine. A
   * teardown that leaves something behind is logged with what is left; it does not throw.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    String problem = guard.teardown();
    if (problem != null) {
      log.error("the real node's teardown left something behind:\n{}", problem);
    }
    ComponentProcess.closeAll(processes);
    if (plane != null) {
      plane.close();
    }
    guard.close();
  }

  /**
   * A new run directory under {@code target/testbed}, named {@code realnode-} and six random characters: kubelet
   * and containerd make unix sockets under it, and a socket path has at most {@value #SOCKET_PATH_LIMIT} bytes.
   * Java's temporary names (19 digits) took the pod-resources socket to 108 bytes in a checkout at
   * {@code /check/work/main}.
   */
  static Path newRunDirectory() {
    Path target = TestBedBinaries.projectDir().resolve("target/testbed");
    try {
      Files.createDirectories(target);
      for (int attempt = 0; ; attempt++) {
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36), 36);
        try {
          return Files.createDirectory(target.resolve("realnode-" + suffix));
        } catch (FileAlreadyExistsException e) {
          if (attempt == 100) {
            throw e;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Fails, naming the socket, where the run directory is too deep for the sockets kubelet makes under it. */
  static void requireShortEnoughForSockets(Path dir) {
    String socket = dir.toAbsolutePath().resolve(LONGEST_SOCKET).toString();
    int length = socket.getBytes(StandardCharsets.UTF_8).length;
    if (length > SOCKET_PATH_LIMIT) {
      throw new IllegalStateException(
          "the real node's run directory %s is too deep: kubelet's socket %s would be %d bytes, and a unix socket path has at most %d; check the project out at a shorter path"
              .formatted(dir, socket, length, SOCKET_PATH_LIMIT));
    }
  }
}
