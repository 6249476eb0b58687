package io.gitfn.bench;

import io.gitfn.testbed.ComponentProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Kyma's buildless Function controller ({@code components/buildless-serverless/cmd} of kyma-project/serverless) as
 * a child process against a cluster, as Kyma's chart runs it: a function-config file, a log-config file, no leader
 * election. Its images point at the runtime images in the node's registry and its package-registry Secret at the
 * test bed's mirrors; tracing and eventing addresses are empty, as there is neither on the node. It stops when
 * closed, and when the benchmark's JVM dies in any way ({@link ComponentProcess}).
 */
final class KymaController implements AutoCloseable {

  /** The Secret, in each Function's namespace, whose {@code .npmrc} and {@code pip.conf} Kyma's Pods mount. */
  static final String PACKAGE_REGISTRY_SECRET = "serverless-package-registry-config";

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final ComponentProcess guarded;
  private final ProcessHandle manager;

  private KymaController(ComponentProcess guarded, ProcessHandle manager) {
    this.guarded = guarded;
    this.manager = manager;
  }

  /**
   * Starts {@code binary}, with {@code environment} as Kyma's image sets it (its GODEBUG), against the cluster of
   * {@code kubeconfig} with {@code nodejs24} as the runtime image of every Node.js runtime, and returns once its
   * manager has started its workers.
   */
  static KymaController start(Path binary, Map<String, String> environment, Path kubeconfig, String nodejs24,
      Path dir, Duration timeout) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int healthz = freePort();
    Path functionConfig = Files.writeString(dir.resolve("function-config.yaml"), String.join("\n",
        "metricsPort: \"127.0.0.1:" + freePort() + "\"",
        "leaderElectionEnabled: false",
        "secretMutatingWebhookPort: " + freePort(),
        "internalEndpointPort: \"127.0.0.1:" + freePort() + "\"",
        "healthz:",
        "  healthzPort: \"127.0.0.1:" + healthz + "\"",
        "  healthzLivenessTimeout: 10s",
        "images:",
        "  repoFetcher: \"unused/git-sources-are-not-benchmarked\"",
        "  nodejs20: \"" + nodejs24 + "\"",
        "  nodejs22: \"" + nodejs24 + "\"",
        "  nodejs24: \"" + nodejs24 + "\"",
        "  python312: \"unused/python-is-not-benchmarked\"",
        "packageRegistryConfigSecretName: \"" + PACKAGE_REGISTRY_SECRET + "\"",
        "functionTraceCollectorEndpoint: \"\"",
        "functionPublisherProxyAddress: \"\"",
        // Kyma's chart's presets and default (hack/function-config.yaml); the benchmark's Functions name their own.
        "resourcesConfiguration:",
        "  function:",
        "    resources:",
        "      minRequestCpu: \"10m\"",
        "      minRequestMemory: \"16Mi\"",
        "      defaultPreset: \"L\"",
        "      presets:",
        "        L: {requestCpu: \"400m\", requestMemory: \"512Mi\", limitCpu: \"800m\", limitMemory: \"1024Mi\"}",
        ""));
    Path logConfig = Files.writeString(dir.resolve("log-config.yaml"), "logLevel: info\nlogFormat: json\n");
    Path log = dir.resolve("kyma-controller.log");
    Map<String, String> env = new java.util.HashMap<>(environment);
    env.putAll(Map.of("KUBECONFIG", kubeconfig.toString(),
        "APP_FUNCTION_CONFIG_PATH", functionConfig.toString(),
        "APP_LOG_CONFIG_PATH", logConfig.toString()));
    ComponentProcess guarded = ComponentProcess.start("kyma-serverless", log, List.of(binary.toString()), env);
    URI readyz = URI.create("http://127.0.0.1:" + healthz + "/readyz");
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (System.nanoTime() < deadline && guarded.isAlive()) {
        if (ready(readyz) && Files.readString(log).contains("Starting workers")) {
          ProcessHandle manager = guarded.server(binary.getFileName().toString()).orElseThrow(
              () -> new IllegalStateException("Kyma's controller runs, but no " + binary.getFileName()
                  + " is below its guard"));
          return new KymaController(guarded, manager);
        }
        Thread.sleep(100); // waiting for a start, not measuring anything
      }
      throw new IllegalStateException("Kyma's controller did not start within " + timeout.toSeconds() + " s; log "
          + log + ":\n" + guarded.tail(40));
    } catch (IOException | InterruptedException | RuntimeException e) {
      guarded.close();
      throw e;
    }
  }

  long pid() {
    return manager.pid();
  }

  private static boolean ready(URI readyz) {
    try {
      return HTTP.send(HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Stops the controller with SIGTERM and waits until it has exited. */
  @Override
  public void close() {
    guarded.close();
  }
}
