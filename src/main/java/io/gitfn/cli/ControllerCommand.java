package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.GoDuration;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import io.gitfn.controller.Controller;
import io.gitfn.controller.OperationSettings;
import io.gitfn.controller.leader.LeaderElection;
import io.gitfn.manifest.AllowedKinds;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.GitHosts;
import io.gitfn.reconcile.ShardSelector;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.webhook.WebhookSettings;
import io.gitfn.workload.FunctionResourcesConfig;
import io.gitfn.workload.WorkloadSettings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code gitfn controller}: reconciles FunctionRepositories in the cluster until stopped. */
@Command(name = "controller", mixinStandardHelpOptions = true,
    description = "Run the gitfn controller: keep each FunctionRepository's Functions equal to its Git folder.")
final class ControllerCommand implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(ControllerCommand.class);

  @Mixin KubeOptions kube;

  @Option(names = "--webhook-bind", defaultValue = "0.0.0.0", description = "Address of the webhook receiver (default: ${DEFAULT-VALUE}).")
  String webhookBind;

  @Option(names = "--webhook-port", defaultValue = "9292", description = "Port of the webhook receiver, serving /hooks/<forge> (default: ${DEFAULT-VALUE}).")
  int webhookPort;

  @Option(names = "--webhook-secret-file", description = "A controller-wide webhook secret, for sources without their own.")
  Path webhookSecretFile;

  @Option(names = "--cache-dir", description = "Where Git mirrors live (default: $XDG_CACHE_HOME/gitfn/mirrors or ~/.cache/gitfn/mirrors).")
  Path cacheDir;

  @Option(names = "--mirror-disk-budget", defaultValue = "10Gi", description = "Disk the mirrors may use before the least recently used is evicted (default: ${DEFAULT-VALUE}).")
  String diskBudget;

  @Option(names = "--max-repository-size", defaultValue = "1Gi", description = "Largest repository gitfn fetches (default: ${DEFAULT-VALUE}).")
  String maxRepositorySize;

  @Option(names = "--max-file-size", defaultValue = "10Mi", description = "Largest file gitfn reads (default: ${DEFAULT-VALUE}).")
  String maxFileSize;

  @Option(names = "--git-timeout", defaultValue = "60", description = "Seconds one Git operation (an ls-remote, a fetch) may take from start to end, however the server trickles (default: ${DEFAULT-VALUE}).")
  int gitTimeoutSeconds;

  @Option(names = "--resources-config", paramLabel = "FILE", description = "The Function profiles' figures, as Kyma's resourcesConfiguration has them (function.resources.presets.<XS..XL>.{requestCpu, requestMemory, limitCpu, limitMemory}, and defaultPreset); presets left out keep Kyma's figures. Unset: Kyma's figures, default L.")
  Path resourcesConfig;

  @Option(names = "--known-hosts", description = "known_hosts file trusted for SSH repositories whose Secret has no known_hosts.")
  Path knownHosts;

  @Option(names = "--allow-target-namespace", description = "A namespace other than its own that a FunctionRepository may write into (repeatable).")
  List<String> allowedTargetNamespaces = List.of();

  @Option(names = "--allowed-kind", paramLabel = "APIVERSION/KIND", description = "A kind FunctionRepositories may declare beside their Functions, as apiVersion/Kind (repeatable; the first replaces the default list). Namespaced kinds only; the controller's role (or the repository's spec.serviceAccountName) must allow writing them. Default: v1/ConfigMap, v1/Secret (SOPS-encrypted only), gateway.networking.k8s.io/v1/HTTPRoute, networking.k8s.io/v1/Ingress, gateway.kyma-project.io/v2/APIRule.")
  List<String> allowedKinds = List.of();

  @Option(names = "--require-service-account", description = "Refuse a FunctionRepository without spec.serviceAccountName, so that every tenant applies with the RBAC of a ServiceAccount of its own namespace, never with the controller's (multi-tenant clusters).")
  boolean requireServiceAccount;

  @Option(names = "--allowed-git-host", paramLabel = "HOST", description = "A host that FunctionRepositories and Functions may fetch from: a name, or *.domain for every host below it, or file for local repositories (repeatable). Default: any host.")
  List<String> allowedGitHosts = List.of();

  @Option(names = "--cluster-name", defaultValue = ControllerSettings.DEFAULT_CLUSTER_NAME, description = "This cluster's name in the context of the commit statuses gitfn sends (gitfn/<cluster>/<namespace>/<name>), so that several clusters can report on one commit (default: ${DEFAULT-VALUE}).")
  String clusterName;

  @Option(names = "--auto-rollback", negatable = true, defaultValue = "true", fallbackValue = "true", description = "Roll a Function back to the last version that ran, with no build, when its new version fails to roll out (progress deadline, crash loop, failed dependency install); --no-auto-rollback turns it off. A Function's gitfn.io/auto-rollback annotation wins (default: ${DEFAULT-VALUE}).")
  boolean autoRollback;

  @Option(names = "--function-source-interval", defaultValue = "1m", description = "How often a Function's own Git source is checked without a webhook (default: ${DEFAULT-VALUE}).")
  String functionSourceInterval;

  @Option(names = "--registry", defaultValue = "registry.local:5000", description = "Registry that the controller and install Jobs push images to and Deployments pull from (default: ${DEFAULT-VALUE}).")
  String registry;

  @Option(names = "--registry-secret", defaultValue = BuildSettings.DEFAULT_REGISTRY_SECRET, description = "dockerconfigjson Secret, in each Function's namespace, that the builder pushes with and the Function's Pods pull with (default: ${DEFAULT-VALUE}).")
  String registrySecret;

  @Option(names = "--build-mode", paramLabel = "image|buildless", defaultValue = "image", description = "How Functions without a gitfn.io/build-mode annotation run: image (an image assembled from layers in the registry, run by digest) or buildless (the runtime's base image, the source from a ConfigMap, dependencies installed at Pod start; no registry) (default: ${DEFAULT-VALUE}).")
  String buildMode;

  @Option(names = "--dependency-cache-claim", paramLabel = "CLAIM", description = "Buildless only: a PersistentVolumeClaim, in each namespace with buildless Functions, where their Pods keep installed dependencies by key; a Pod whose key is there installs nothing (a revert, a handler-only change, every replica after the first). Unset: every Pod start installs.")
  String dependencyCacheClaim;

  @Option(names = "--package-registry-secret", description = "Secret with .npmrc or pip.conf, in each Function's namespace, for dependency installs.")
  String packageRegistrySecret;

  @Option(names = "--trace-collector-endpoint", paramLabel = "URL", defaultValue = "", description = "The OTLP/HTTP URL Functions send their spans to (TRACE_COLLECTOR_ENDPOINT), such as Kyma telemetry's http://telemetry-otlp-traces.kyma-system.svc.cluster.local:4318/v1/traces. Unset: Functions carry trace context on but send no spans.")
  String traceCollectorEndpoint;

  @Option(names = "--builder", paramLabel = "layered", defaultValue = "layered", description = "How images are built: layered, the one builder (no build tool: the controller assembles images from layers in the registry, and a Job with no privilege installs new dependencies); buildah and kaniko were removed (default: ${DEFAULT-VALUE}).")
  String builder;

  @Option(names = "--builder-image", description = "The image install Jobs pack with (default: gitfn's own, ghcr.io/gitfn/gitfn of this version).")
  String builderImage;

  @Option(names = "--push-deadline", defaultValue = "60s", description = "Layered builder: how long each of the controller's own registry requests may take (a lookup, or a push of a source layer, config or manifest) before the Function's BuildReady says the registry failed (default: ${DEFAULT-VALUE}).")
  String pushDeadline;

  @Option(names = BaseImageOption.FLAG, paramLabel = "RUNTIME=IMAGE", description = "The base image a runtime's builds start from, such as nodejs22=mirror.example.com/library/node:22-bookworm-slim, for a registry mirror or an air-gapped cluster (repeatable; default: Docker Hub's node and python images). A Function's runtimeImageOverride still wins.")
  List<String> baseImages = List.of();

  @Option(names = "--build-concurrency", defaultValue = "5", description = "Install Jobs that may run at once, cluster-wide; the rest queue (default: ${DEFAULT-VALUE}).")
  int buildConcurrency;

  @Option(names = "--build-deadline", defaultValue = "20m", description = "How long an install Job may run before Kubernetes stops it and the install fails (its activeDeadlineSeconds; default: ${DEFAULT-VALUE}).")
  String buildDeadline;

  @Option(names = "--build-pod-annotation", paramLabel = "KEY=VALUE", description = "An annotation on every install Job's Pod, such as a service mesh's opt-out or what an admission policy matches to send builds to dedicated nodes (repeatable).")
  List<String> buildPodAnnotations = List.of();

  @Option(names = "--insecure-registry", paramLabel = "HOST[:PORT]", description = "A registry reached over plain HTTP or without verifying TLS, like the in-cluster registry.local:5000: by the controller and install Jobs when they push there or read a base image from there (repeatable).")
  List<String> insecureRegistries = List.of();

  @Option(names = "--leader-elect", description = "Elect a leader on a Lease, so that of several instances only one reconciles.")
  boolean leaderElect;

  @Option(names = "--leader-election-namespace", description = "Namespace of the Lease (default: $POD_NAMESPACE, else the kubeconfig's namespace, else default).")
  String leaderElectionNamespace;

  @Option(names = "--leader-election-id", defaultValue = LeaderElection.DEFAULT_LEASE_NAME, description = "Name of the Lease (default: ${DEFAULT-VALUE}); one per shard.")
  String leaderElectionId;

  @Option(names = "--shard-selector", paramLabel = "SELECTOR", description = "Label selector of the FunctionRepositories and Functions this instance reconciles, like gitfn.io/shard=a, or !gitfn.io/shard for the unsharded rest (default: all).")
  String shardSelector;

  @Option(names = "--metrics-bind", defaultValue = "0.0.0.0", description = "Address of /healthz, /readyz and /metrics (default: ${DEFAULT-VALUE}).")
  String metricsBind;

  @Option(names = "--metrics-port", defaultValue = "8080", description = "Port of /healthz, /readyz and /metrics; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  @Option(names = "--dashboard-bind", defaultValue = "127.0.0.1", description = "Address of the dashboard; loopback, for kubectl port-forward (default: ${DEFAULT-VALUE}).")
  String dashboardBind;

  @Option(names = "--dashboard-port", defaultValue = "8081", description = "Port of the dashboard; 0 picks a free one, -1 serves none (default: ${DEFAULT-VALUE}).")
  int dashboardPort;

  @Option(names = "--dashboard-actions", description = "Offer actions on the dashboard (reconcile, suspend, resume, pin, unpin) to a bearer token the API server accepts and authorizes; needs create on tokenreviews and subjectaccessreviews (default: off, read-only).")
  boolean dashboardActions;

  @Option(names = "--log-format", defaultValue = "text", description = "text, or json for one JSON object per line (default: ${DEFAULT-VALUE}).")
  String logFormat;

  @Option(names = "--log-level", defaultValue = "info", description = "error, warn, info, debug or trace (default: ${DEFAULT-VALUE}).")
  String logLevel;

  @Option(names = "--shutdown-timeout", defaultValue = "20s", description = "On SIGTERM, how long running reconciles may take to finish (default: ${DEFAULT-VALUE}).")
  String shutdownTimeout;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    LogSetup.Format format = flag(() -> LogSetup.format(logFormat));
    ch.qos.logback.classic.Level level = flag(() -> LogSetup.level(logLevel));
    ShardSelector shard = flag(() -> ShardSelector.parse("--shard-selector", shardSelector));
    GitHosts gitHosts = flag(() -> new GitHosts(allowedGitHosts));
    Duration shutdown = flag(() -> {
      try {
        return GoDuration.parse(shutdownTimeout);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--shutdown-timeout " + e.getMessage());
      }
    });
    Duration deadline = flag(() -> {
      try {
        return GoDuration.parse(buildDeadline);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--build-deadline " + e.getMessage());
      }
    });
    ImageBuilder tool = ImageBuilder.of(flag(() -> {
      try {
        return ImageBuilder.Tool.parse(builder);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--" + e.getMessage());
      }
    }));
    FunctionResourcesConfig functionResources = flag(() -> functionResources(resourcesConfig));
    OperationSettings ops = flag(() -> new OperationSettings(Optional.empty(), metricsBind, metricsPort, dashboardBind,
        dashboardPort, dashboardActions, shutdown));
    String instance = instanceName();
    if (leaderElect) {
      // Checked before the client exists, so that a typo fails as a usage error; the namespace may come later.
      flag(() -> new LeaderElection(leaderElectionNamespace == null ? "default" : leaderElectionNamespace,
          leaderElectionId, instance));
    }
    LogSetup.configure(format, level);
    SourceSettings sources = new SourceSettings(cacheDir(), bytes(diskBudget), Duration.ofSeconds(gitTimeoutSeconds),
        bytes(maxRepositorySize), bytes(maxFileSize));
    WebhookSettings webhooks = webhookSecretFile == null ? WebhookSettings.defaults()
        : WebhookSettings.defaults().withGlobalSecret(Files.readString(webhookSecretFile).strip());
    ControllerSettings settings = new ControllerSettings(knownHosts == null ? "" : Files.readString(knownHosts),
        new HashSet<>(allowedTargetNamespaces), GoDuration.parse(functionSourceInterval), shard, instance, gitHosts,
        flag(() -> ControllerSettings.defaults().withClusterName(clusterName)).clusterName(), autoRollback,
        allowedKinds.isEmpty() ? AllowedKinds.DEFAULT : flag(() -> {
          try {
            return AllowedKinds.parse(allowedKinds);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--allowed-kind " + e.getMessage());
          }
        }),
        requireServiceAccount);
    BuildSettings defaults = BuildSettings.defaults();
    Map<FunctionRuntime, String> runtimeBases = flag(() -> BaseImageOption.apply(defaults.baseImages(), baseImages));
    BuildSettings builds = flag(() -> new BuildSettings(registry,
        builderImage == null || builderImage.isBlank() ? tool : tool.withImage(builderImage), runtimeBases,
        registrySecret, packageRegistrySecret, defaults.buildProfile(), defaults.podAnnotations(), buildConcurrency,
        new HashSet<>(insecureRegistries)).withDeadline(deadline)
        .withPodAnnotations(keyValues("--build-pod-annotation", buildPodAnnotations))
        .withDefaultMode(BuildMode.parse(buildMode))
        .withDependencyCacheClaim(dependencyCacheClaim)
        .withPushDeadline(flag(() -> {
          try {
            return GoDuration.parse(pushDeadline);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--push-deadline " + e.getMessage());
          }
        })));
    // The hook waits for the reconciles' time to finish, plus time to release the Lease and close the servers.
    StopSignal signal = StopSignal.install("gitfn-stop", shutdown.plusSeconds(10), true);
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KubernetesClient client = kube.client()) {
      if (leaderElect) {
        ops = ops.withLeaderElection(flag(() -> new LeaderElection(leaseNamespace(client), leaderElectionId,
            instance)));
      }
      try (Controller controller = Controller.start(client, sources, webhooks, settings, builds,
          WorkloadSettings.defaults().withImagePullSecret(registrySecret)
              .withTraceCollectorEndpoint(traceCollectorEndpoint).withFunctionResources(functionResources),
          webhookBind, webhookPort, ops, meters, signal::fail)) {
        log.info("gitfn controller running against {}; webhooks at {}; health and metrics at {}",
            client.getMasterUrl(), controller.webhookUri(), controller.operationsUri());
        signal.await();
        log.info("stopping: running reconciles have {} to finish", shutdown);
      }
      log.info("stopped");
    } finally {
      signal.closed();
    }
    return signal.exitCode();
  }

  /** A flag's value, or picocli's usage error with the flag's name in its message. */
  private <T> T flag(Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private String leaseNamespace(KubernetesClient client) {
    if (leaderElectionNamespace != null && !leaderElectionNamespace.isBlank()) {
      return leaderElectionNamespace;
    }
    String pod = System.getenv("POD_NAMESPACE");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    String configured = client.getNamespace();
    return configured == null || configured.isBlank() ? "default" : configured;
  }

  /**
   * This process's name in the Lease and its Events: the Pod's (or host's) name and a random suffix, as client-go
   * makes it, so that two processes on one host, or a restarted Pod, never pass for each other.
   */
  private static String instanceName() {
    String host = System.getenv("POD_NAME");
    if (host == null || host.isBlank()) {
      host = System.getenv("HOSTNAME");
    }
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "gitfn";
      }
    }
    return host + "_" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Kyma's figures without the flag; else the file's, read only when it is small enough to be one. */
  static FunctionResourcesConfig functionResources(Path file) {
    if (file == null) {
      return FunctionResourcesConfig.kyma();
    }
    try {
      if (Files.size(file) > FunctionResourcesConfig.MAX_BYTES) {
        throw new IllegalArgumentException("--resources-config " + file + ": larger than "
            + FunctionResourcesConfig.MAX_BYTES + " bytes");
      }
      return FunctionResourcesConfig.parse(Files.readString(file), "--resources-config " + file);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("--resources-config " + file + ": cannot read it: " + e);
    }
  }

  private Path cacheDir() {
    return cacheDir != null ? cacheDir : CacheHome.of("mirrors");
  }

  private static long bytes(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity)).longValueExact();
  }

  /** {@code KEY=VALUE} arguments of a repeatable flag, in order; a later key wins. */
  static Map<String, String> keyValues(String flag, List<String> arguments) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String argument : arguments) {
      int equals = argument.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(flag + " `" + argument + "` is not KEY=VALUE");
      }
      values.put(argument.substring(0, equals), argument.substring(equals + 1));
    }
    return values;
  }
}
