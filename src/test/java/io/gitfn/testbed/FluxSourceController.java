package io.gitfn.testbed;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flux's source-controller, run outside any cluster against a test bed's API server, for the scale benchmark that
 * compares it with gitfn's controller. {@code bash scripts/build-testbed.sh flux} builds it and copies its CRDs into
 * {@code <cache>/source-controller-<version>/}; CI never does, so nothing that CI runs may need it.
 */
public final class FluxSourceController implements AutoCloseable {

  /** source-controller's own default for {@code --concurrent}: reconciles at once, per kind. */
  public static final int DEFAULT_CONCURRENT = 2;

  private static final Logger LOG = LoggerFactory.getLogger(FluxSourceController.class);
  private static final String BINARY = "source-controller";
  private static final String BUILD = "bash scripts/build-testbed.sh flux";

  private final ComponentProcess guarded;
  private final ProcessHandle server;
  private final URI metrics;

  private FluxSourceController(ComponentProcess guarded, ProcessHandle server, URI metrics) {
    this.guarded = guarded;
    this.server = server;
    this.metrics = metrics;
  }

  /**
   * The folder with the {@code source-controller} binary and its {@code crds/}, for the version in
   * {@code scripts/testbed.versions}. Builds it first when it is missing: about 3 minutes on 2 cores, once.
   */
  public static Path locateOrBuild() {
    Path dir = TestBedBinaries.cacheDir().resolve(
        BINARY + "-" + TestBedBinaries.versions().getProperty("FLUX_SOURCE_CONTROLLER_VERSION"));
    if (built(dir)) {
      return dir;
    }
    LOG.info("{} is not built; running `{}`", dir, BUILD);
    try {
      Process build = new ProcessBuilder("bash", "scripts/build-testbed.sh", "flux")
          .directory(TestBedBinaries.projectDir().toFile())
          .inheritIO()
          .start();
      int code = build.waitFor();
      if (code != 0) {
        throw new IllegalStateException("`" + BUILD + "` failed with exit code " + code + "; its output is above");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run `" + BUILD + "`", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running `" + BUILD + "`", e);
    }
    if (!built(dir)) {
      throw new IllegalStateException(
          "Flux's source-controller is still missing in " + dir + " after `" + BUILD + "`; run it and read its output.");
    }
    return dir;
  }

  /** {@link #start(Path, KubeTestBed, Path, Duration, int)} with source-controller's default concurrency. */
  public static FluxSourceController start(Path home, KubeTestBed bed, Path dir, Duration timeout) {
    return start(home, bed, dir, timeout, DEFAULT_CONCURRENT);
  }

  /**
   * Installs the Flux source CRDs on {@code bed} and starts source-controller on it, from {@code home} (what
   * {@link #locateOrBuild()} returned, so that a build happens before anything is timed), with its artifacts under
   * {@code dir/storage} and its log in {@code dir/logs}; returns once its {@code /readyz} answers 200 and its
   * GitRepository workers run.
   */
  public static FluxSourceController start(Path home, KubeTestBed bed, Path dir, Duration timeout, int concurrent) {
    long started = System.nanoTime();
    try (KubernetesClient client = bed.newClient()) {
      // All of the module's CRDs: source-controller watches GitRepository, HelmRepository, HelmChart, Bucket and
      // OCIRepository, and does not start if one is missing.
      KubeTestBed.installCrds(client, home.resolve("crds"), ".yaml");
    }
    Path storagePath = createDirectories(dir.resolve("storage")); // it must exist: source-controller does not create it
    int storage = FreePorts.next();
    int metrics = FreePorts.next();
    int health = FreePorts.next();
    List<String> command = List.of(
        home.resolve(BINARY).toString(),
        "--storage-path=" + storagePath,
        "--storage-addr=127.0.0.1:" + storage,
        // Artifact URLs in status name this address; in a cluster it would be the Service's.
        "--storage-adv-addr=127.0.0.1:" + storage,
        "--metrics-addr=127.0.0.1:" + metrics,
        "--health-addr=127.0.0.1:" + health,
        // Otherwise it watches only $RUNTIME_NAMESPACE, its own Pod's namespace.
        "--watch-all-namespaces=true",
        "--enable-leader-election=false",
        "--concurrent=" + concurrent,
        "--log-level=info");
    // source-controller binds no --kubeconfig flag (controller-runtime's is on Go's flag set, which it does not
    // parse), but controller-runtime reads $KUBECONFIG before it tries the in-cluster config.
    Path log = dir.resolve("logs/" + BINARY + ".log");
    ComponentProcess guarded =
        ComponentProcess.start(BINARY, log, command, Map.of("KUBECONFIG", bed.kubeconfig().toString()));
    try {
      // /readyz answers as soon as the manager runs, a second or two before the informers have synced and the
      // workers take GitRepositories; waiting for the workers keeps that start-up out of whatever is timed next.
      ControlPlane.waitFor(guarded, timeout, () -> ControlPlane.httpOk("http://127.0.0.1:" + health + "/readyz", null)
          && gitRepositoryWorkersStarted(log));
      ProcessHandle server = guarded.server(BINARY)
          .orElseThrow(() -> guarded.failure("is ready, but is not below its guard"));
      LOG.info("source-controller ready in {} ms (pid {}, log in {})",
          (System.nanoTime() - started) / 1_000_000, server.pid(), dir.resolve("logs"));
      return new FluxSourceController(guarded, server, URI.create("http://127.0.0.1:" + metrics + "/metrics"));
    } catch (RuntimeException e) {
      guarded.close();
      throw e;
    }
  }

  /** The Go process itself, below its guard: the one whose memory a benchmark reads. */
  public long pid() {
    return server.pid();
  }

  /** controller-runtime's Prometheus endpoint: reconcile counts and durations, work-queue depths. */
  public URI metrics() {
    return metrics;
  }

  @Override
  public void close() {
    guarded.close();
  }

  // controller-runtime's JSON log line, once the GitRepository controller's caches have synced.
  private static boolean gitRepositoryWorkersStarted(Path log) {
    try (var lines = Files.lines(log)) {
      return lines.anyMatch(line -> line.contains("\"msg\":\"Starting workers\"")
          && line.contains("\"controller\":\"gitrepository\""));
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  private static Path createDirectories(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  private static boolean built(Path dir) {
    return Files.isExecutable(dir.resolve(BINARY)) && Files.isDirectory(dir.resolve("crds"));
  }
}
