package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.reconcile.Controller;
import io.gitfn.build.BuildSettings;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.GoDuration;
import io.gitfn.reconcile.RegistryLookupSettings;
import io.gitfn.workload.WorkloadSettings;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.webhook.WebhookSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

  @Option(names = "--git-timeout", defaultValue = "60", description = "Seconds one Git operation may take (default: ${DEFAULT-VALUE}).")
  int gitTimeoutSeconds;

  @Option(names = "--known-hosts", description = "known_hosts file trusted for SSH repositories whose Secret has no known_hosts.")
  Path knownHosts;

  @Option(names = "--allow-target-namespace", description = "A namespace other than its own that a FunctionRepository may write into (repeatable).")
  List<String> allowedTargetNamespaces = List.of();

  @Option(names = "--function-source-interval", defaultValue = "1m", description = "How often a Function's own Git source is checked without a webhook (default: ${DEFAULT-VALUE}).")
  String functionSourceInterval;

  @Option(names = "--registry", defaultValue = "registry.local:5000", description = "Registry that build Jobs push images to and Deployments pull from (default: ${DEFAULT-VALUE}).")
  String registry;

  @Option(names = "--registry-secret", defaultValue = BuildSettings.DEFAULT_REGISTRY_SECRET, description = "dockerconfigjson Secret, in each Function's namespace, that the builder pushes with (default: ${DEFAULT-VALUE}).")
  String registrySecret;

  @Option(names = "--package-registry-secret", description = "Secret with .npmrc or pip.conf, in each Function's namespace, for dependency installs.")
  String packageRegistrySecret;

  @Option(names = "--builder-image", defaultValue = BuildSettings.DEFAULT_BUILDER_IMAGE, description = "The kaniko executor image (default: ${DEFAULT-VALUE}).")
  String builderImage;

  @Option(names = "--build-concurrency", defaultValue = "5", description = "Build Jobs that may run at once, cluster-wide; the rest queue (default: ${DEFAULT-VALUE}).")
  int buildConcurrency;

  @Option(names = "--registry-lookup", description = "Before building, ask the registry whether it already has the image (its OCI API, with the push Secret's credentials).")
  boolean registryLookup;

  @Option(names = "--insecure-registry", paramLabel = "HOST[:PORT]", description = "A registry the lookup reaches over plain HTTP, like the in-cluster registry.local:5000 (repeatable).")
  List<String> insecureRegistries = List.of();

  @Override
  public Integer call() throws Exception {
    SourceSettings sources = new SourceSettings(cacheDir(), bytes(diskBudget), Duration.ofSeconds(gitTimeoutSeconds),
        bytes(maxRepositorySize), bytes(maxFileSize));
    WebhookSettings webhooks = webhookSecretFile == null ? WebhookSettings.defaults()
        : WebhookSettings.defaults().withGlobalSecret(Files.readString(webhookSecretFile).strip());
    ControllerSettings settings = new ControllerSettings(knownHosts == null ? "" : Files.readString(knownHosts),
        new HashSet<>(allowedTargetNamespaces), GoDuration.parse(functionSourceInterval),
        registryLookup ? RegistryLookupSettings.enabled(new HashSet<>(insecureRegistries))
            : RegistryLookupSettings.disabled());
    BuildSettings defaults = BuildSettings.defaults();
    BuildSettings builds = new BuildSettings(registry, builderImage, defaults.builderArgs(), defaults.baseImages(),
        registrySecret, packageRegistrySecret, defaults.buildProfile(), defaults.podAnnotations(), buildConcurrency);
    StopSignal signal = StopSignal.install("gitfn-stop");
    try (KubernetesClient client = kube.client();
        Controller controller = Controller.start(client, sources, webhooks, settings, builds,
            WorkloadSettings.defaults(), webhookBind, webhookPort)) {
      log.info("gitfn controller running against {}; webhooks at {}", client.getMasterUrl(), controller.webhookUri());
      signal.await();
      log.info("stopping");
    } finally {
      signal.closed();
    }
    return 0;
  }

  private Path cacheDir() {
    if (cacheDir != null) {
      return cacheDir;
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("gitfn").resolve("mirrors");
  }

  private static long bytes(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity)).longValueExact();
  }
}
