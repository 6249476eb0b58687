package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.ImageBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gitfn's layered builder on the kwok cluster, where no container runs: a registry that holds a base image for every
 * runtime, and a player that does what an install Job's Pod does once kwok has it Running. It pushes what the Pod's
 * {@code pack} container would ({@link PackContainer}), then ends the Pod as its kubelet would; kwok holds install
 * Pods Running until then ({@code gitfn-install-pod-held} in {@code kwok-build-stages.yaml}). So the controller sees
 * what it sees on a real node: the Job succeeds after its image is in the registry, never before.
 *
 * <ul>
 *   <li>An install Pod annotated {@value KwokBuildStages#BUILD_DURATION} ends that long after it runs (a Go duration,
 *       {@link KwokBuildStages#buildDuration}), and not before its push.
 *   <li>An install whose dependencies name {@value #MISSING_PACKAGE} fails as npm or pip fails for a package that
 *       does not exist: exit code 1 and their own line as the install container's termination message; nothing is
 *       pushed.
 * </ul>
 *
 * <p>One per cluster ({@link KubeTestBed#layeredBuilds}); the registry and the player stop with the test bed.
 */
public final class KwokLayeredBuilds implements AutoCloseable {

  /**
   * A path in the registry whose images kwok runs but never turns Ready ({@code gitfn-function-pod-never-ready}), as
   * a Pod whose readiness probe keeps failing: a version that cannot start.
   */
  public static final String NEVER_READY = "never-ready";

  /** A package that does not exist: an install Job that installs it fails with npm's or pip's line. */
  public static final String MISSING_PACKAGE = "gitfn-test-missing";

  /** A Node.js Function's package.json whose install fails: it asks for {@link #MISSING_PACKAGE}. */
  public static final String MISSING_DEPENDENCIES = "{\"dependencies\": {\"" + MISSING_PACKAGE + "\": \"1.0.0\"}}";

  private static final Logger log = LoggerFactory.getLogger(KwokLayeredBuilds.class);

  private final OciRegistry registry;
  private final PackContainer pack;
  private final KubernetesClient client;
  private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(2, work -> {
    Thread thread = new Thread(work, "kwok-install-pod");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final AtomicInteger ended = new AtomicInteger();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final Watch watch;

  private KwokLayeredBuilds(OciRegistry registry, KubernetesClient client, Path dir) {
    this.registry = registry;
    this.client = client;
    this.pack = new PackContainer(registry, dir);
    this.watch = client.pods().inAnyNamespace().withLabel(Labels.RESOURCE, DependencyInstallJob.RESOURCE)
        .watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            if (action != Action.DELETED && running(pod) && seen.add(pod.getMetadata().getUid())) {
              pool.execute(() -> play(pod));
            }
          }

          @Override
          public void onClose(WatcherException cause) {
            if (cause != null) {
              failures.add("the watch of install Pods ended: " + cause.getMessage());
            }
          }
        });
  }

  /** A registry with every runtime's base image, and the player, on {@code client}'s cluster. */
  static KwokLayeredBuilds start(KubernetesClient client, Path dir) {
    OciRegistry registry = null;
    try {
      registry = OciRegistry.startWithNodeBase();
      return new KwokLayeredBuilds(registry, client, Files.createDirectories(dir));
    } catch (IOException e) {
      if (registry != null) {
        registry.close();
      }
      throw new UncheckedIOException("cannot start the layered builds' registry in " + dir, e);
    }
  }

  /**
   * The controller's build settings for this cluster: the layered builder, pushing to this registry, with every
   * runtime's base image there. Content does not matter where no container runs, so every runtime's base is the
   * one Node.js image the registry holds.
   */
  public BuildSettings settings() {
    BuildSettings settings = BuildSettings.defaults().withRegistry(registry.address())
        .withInsecureRegistries(Set.of(registry.address()))
        .withBuilder(ImageBuilder.of(ImageBuilder.Tool.LAYERED));
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      settings = settings.withBaseImage(runtime, registry.address() + "/" + OciRegistry.NODE_BASE);
    }
    return settings;
  }

  /** {@link #settings} pushing below {@value #NEVER_READY}: every version it makes runs but never turns Ready. */
  public BuildSettings neverReady() {
    return settings().withRegistry(registry.address() + "/" + NEVER_READY);
  }

  /** The controller's command-line flags for the same settings, for a controller in a JVM of its own. */
  public List<String> flags() {
    List<String> flags = new ArrayList<>(List.of("--builder", "layered", "--registry", registry.address(),
        "--insecure-registry", registry.address()));
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      flags.add("--base-image=" + runtime.value() + "=" + registry.address() + "/" + OciRegistry.NODE_BASE);
    }
    return flags;
  }

  public OciRegistry registry() {
    return registry;
  }

  /** How many install Pods the player ended, succeeded or failed. */
  public int ended() {
    return ended.get();
  }

  /** What the player could not do, with the Pod's name. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  private void play(Pod pod) {
    String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    Instant running = Instant.now();
    try {
      String missing = missingPackage(pod);
      if (missing != null) {
        end(pod, missing);
        return;
      }
      pack.play(container(pod, DependencyInstallJob.PACK).getArgs());
      Duration left = Duration.between(Instant.now(), running.plus(duration(pod)));
      if (left.isNegative() || left.isZero()) {
        end(pod, null);
      } else {
        pool.schedule(() -> end(pod, null), left.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (Exception e) {
      log.warn("install Pod {} could not be played", name, e);
      failures.add(name + ": " + e);
    }
  }

  /** npm's or pip's line for {@link #MISSING_PACKAGE}, when the Pod's source ConfigMap asks for it. */
  private String missingPackage(Pod pod) {
    String source = pod.getMetadata().getLabels().get("job-name"); // the ConfigMap is named as its Job
    ConfigMap files = client.configMaps().inNamespace(pod.getMetadata().getNamespace()).withName(source).get();
    if (files == null || files.getData() == null) {
      return null;
    }
    for (Map.Entry<String, String> file : files.getData().entrySet()) {
      if (file.getValue().contains(MISSING_PACKAGE)) {
        return file.getKey().equals("requirements.txt")
            ? "ERROR: Could not find a version that satisfies the requirement " + MISSING_PACKAGE + " (from versions:"
                + " none)\nERROR: No matching distribution found for " + MISSING_PACKAGE
            : "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/" + MISSING_PACKAGE
                + " - Not found";
      }
    }
    return null;
  }

  private static Duration duration(Pod pod) {
    String value = pod.getMetadata().getAnnotations() == null ? null
        : pod.getMetadata().getAnnotations().get(KwokBuildStages.BUILD_DURATION);
    try {
      return value == null ? Duration.ZERO : GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      return Duration.ZERO;
    }
  }

  /** Ends the Pod as its kubelet would: both containers completed, or the install failed with {@code message}. */
  private void end(Pod pod, String message) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    boolean failed = message != null;
    Container install = container(pod, BuildlessDeployment.INSTALL);
    Container packer = container(pod, DependencyInstallJob.PACK);
    ContainerStatus installed = new ContainerStatusBuilder().withName(install.getName()).withImage(install.getImage())
        .withReady(false).withRestartCount(0).withNewState().withNewTerminated()
        .withExitCode(failed ? 1 : 0).withReason(failed ? "Error" : "Completed").withMessage(message)
        .withStartedAt(now).withFinishedAt(now).endTerminated().endState().build();
    // The pack container waits beside the install for its exit code, and ends with it.
    ContainerStatus packed = new ContainerStatusBuilder().withName(packer.getName()).withImage(packer.getImage())
        .withReady(false).withRestartCount(0).withNewState().withNewTerminated()
        .withExitCode(failed ? 1 : 0).withReason(failed ? "Error" : "Completed")
        .withMessage(failed ? "Error: the install ended with exit code 1; nothing was packed" : null)
        .withStartedAt(now).withFinishedAt(now).endTerminated().endState().build();
    List<PodCondition> conditions = List.of(
        new PodConditionBuilder().withType("Ready").withStatus("False").withReason("PodCompleted")
            .withLastTransitionTime(now).build(),
        new PodConditionBuilder().withType("ContainersReady").withStatus("False").withReason("PodCompleted")
            .withLastTransitionTime(now).build());
    PodStatus status = new PodStatusBuilder().withPhase(failed ? "Failed" : "Succeeded").withConditions(conditions)
        .withContainerStatuses(installed, packed).build();
    // A merge patch names no resourceVersion, so kwok's own writes to the Pod cannot make it conflict; its lists
    // replace kwok's whole.
    String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
    try {
      client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
          .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      ended.incrementAndGet();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) { // a Job deleted meanwhile takes its Pod
        log.warn("install Pod {}/{} could not be ended", pod.getMetadata().getNamespace(),
            pod.getMetadata().getName(), e);
        failures.add(pod.getMetadata().getName() + ": ending it: " + e.getMessage());
      }
    }
  }

  private static Container container(Pod pod, String name) {
    return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("it has no " + name + " container"));
  }

  private static boolean running(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
        && "Running".equals(pod.getStatus().getPhase());
  }

  @Override
  public void close() {
    watch.close();
    pool.shutdownNow();
    pack.close();
    client.close();
    registry.close();
  }
}
