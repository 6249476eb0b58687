package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes test bed of one test JVM: etcd and kube-apiserver, started on first use, and on demand
 * the components that make it a cluster (controller-manager, scheduler, kwok and a fake node).
 *
 * <p>Everything stops when the JVM ends: through {@link #close()} from the JUnit root store or a shutdown
 * hook, and failing both, through each process's guard (see {@link ComponentProcess}).
 */
public final class KubeTestBed implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KubeTestBed.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static KubeTestBed shared;
  private static RuntimeException sharedStartFailure;

  private final Path dir;
  private final TestBedBinaries binaries;
  private final ControlPlane plane;
  private ClusterComponents cluster;
  private KwokLayeredBuilds layeredBuilds;
  private boolean closed;

  private KubeTestBed(Path dir, TestBedBinaries binaries, ControlPlane plane) {
    this.dir = dir;
    this.binaries = binaries;
    this.plane = plane;
  }

  /** The JVM's test bed with at least the API server running. */
  public static synchronized KubeTestBed shared() {
    // A failed start fails every later test class at once with the same cause, instead of retrying.
    if (sharedStartFailure != null) {
      throw new IllegalStateException("the test bed failed to start earlier in this JVM", sharedStartFailure);
    }
    if (shared == null) {
      try {
        shared = start(runDirectory());
      } catch (RuntimeException e) {
        sharedStartFailure = e;
        throw e;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "kube-testbed-stop"));
    }
    return shared;
  }

  /** A test bed of its own in {@code dir}, for benchmarks; the caller closes it. */
  public static KubeTestBed start(Path dir) {
    return start(dir, List.of());
  }

  /**
   * A test bed of its own whose kube-apiserver also gets {@code apiServerFlags}, such as an audit log that counts
   * each client's writes; the caller closes it.
   */
  public static KubeTestBed start(Path dir, List<String> apiServerFlags) {
    TestBedBinaries binaries = TestBedBinaries.locate();
    long started = System.nanoTime();
    ControlPlane.Options loopback = ControlPlane.LOOPBACK;
    List<String> flags = new ArrayList<>(loopback.apiServerFlags());
    flags.addAll(apiServerFlags);
    ControlPlane plane = ControlPlane.start(binaries, dir, START_TIMEOUT,
        new ControlPlane.Options(loopback.address(), loopback.serviceRange(), flags));
    log.info(
        "kube-apiserver {} ready at {} in {} ms (logs in {})",
        binaries.kubernetesVersion(),
        plane.url(),
        (System.nanoTime() - started) / 1_000_000,
        dir.resolve("logs"));
    return new KubeTestBed(dir, binaries, plane);
  }

  /** Starts controller-manager, scheduler and kwok once; later calls return at once. */
  public synchronized KubeTestBed withCluster() {
    if (cluster == null) {
      long started = System.nanoTime();
      cluster = ClusterComponents.start(binaries, plane, dir, START_TIMEOUT);
      log.info("cluster mode ready in {} ms", (System.nanoTime() - started) / 1_000_000);
    }
    return this;
  }

  /**
   * The layered builder's registry and install-Pod player on this test bed's cluster ({@link KwokLayeredBuilds}),
   * with the cluster; started once, stopped with the test bed.
   */
  public synchronized KwokLayeredBuilds layeredBuilds() {
    withCluster();
    if (layeredBuilds == null) {
      long started = System.nanoTime();
      layeredBuilds = KwokLayeredBuilds.start(newClient(), dir.resolve("layered-builds"));
      log.info("layered builds ready at {} in {} ms", layeredBuilds.registry().address(),
          (System.nanoTime() - started) / 1_000_000);
    }
    return layeredBuilds;
  }

  /**
   * Applies every CRD in {@code config/crd/} (server-side, so it is idempotent) and waits until each is
   * Established. Returns their names.
   */
  public List<String> installCrds() {
    try (KubernetesClient client = newClient()) {
      return installCrds(client);
    }
  }

  /** {@link #installCrds()} through {@code client}, for a cluster of its own such as the real node. */
  public static List<String> installCrds(KubernetesClient client) {
    // .yml: the folder's kustomization.yaml is not a CRD.
    return installCrds(client, TestBedBinaries.projectDir().resolve("config/crd"), ".yml");
  }

  /**
   * Applies the CRD in each file of {@code crds} whose name ends in {@code suffix}, server-side, and waits until each
   * is Established. Returns their names. Public for other CRD sets, such as the Gateway API's on the real node.
   */
  public static List<String> installCrds(KubernetesClient client, Path crds, String suffix) {
    try (var files = Files.list(crds)) {
      List<String> names = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(suffix)).sorted().toList()) {
        CustomResourceDefinition crd;
        try (var in = Files.newInputStream(file)) {
          crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        }
        client.resource(crd).fieldManager("gitfn-testbed").forceConflicts().serverSideApply();
        client
            .apiextensions().v1().customResourceDefinitions()
            .withName(crd.getMetadata().getName())
            .waitUntilCondition(KubeTestBed::established, 30, TimeUnit.SECONDS);
        names.add(crd.getMetadata().getName());
      }
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the CRDs in " + crds, e);
    }
  }

  /** Whether the API server serves {@code crd}'s kind: its Established condition is True. */
  public static boolean established(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  public Config config() {
    return plane.config();
  }

  /** A new client for the admin user; the caller closes it. */
  public KubernetesClient newClient() {
    return plane.newClient();
  }

  /** A kubeconfig file for the admin user, for tools and child processes. */
  public Path kubeconfig() {
    return plane.kubeconfig();
  }

  public String kubernetesVersion() {
    return binaries.kubernetesVersion();
  }

  /** The names and liveness of the test bed's server processes, for tests of the test bed itself. */
  public synchronized List<String> runningComponents() {
    List<ComponentProcess> all = new ArrayList<>(plane.processes());
    if (cluster != null) {
      all.addAll(cluster.processes());
    }
    return all.stream().filter(ComponentProcess::isAlive).map(ComponentProcess::name).toList();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (layeredBuilds != null) {
      layeredBuilds.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    plane.close();
    try {
      Directories.deleteRecursively(dir.resolve("etcd"));
    } catch (IOException ignored) {
      // leftovers under target/ go with `mvn clean`
    }
  }

  private static Path runDirectory() {
    Path target = TestBedBinaries.projectDir().resolve("target/testbed");
    try {
      Files.createDirectories(target);
      return Files.createTempDirectory(target, "run-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
