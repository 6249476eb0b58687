package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gitfn.api.Labels;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.manifest.Runtimes;
import io.gitfn.packer.DependencyImage;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What an install Job's {@code pack} container does, played by a test on a kwok cluster, where no container runs:
 * from the container's own arguments, it pushes the runtime image (unless {@code --runtime-present}) and the
 * dependency image to the registry, with a small install the test lays out instead of npm's. The Job's Pod must
 * run long enough for the push to land first ({@link KwokBuildStages#buildDuration}); a Job that succeeds before
 * its image is there is what the controller reports as a registry failure.
 */
public final class PackContainer implements AutoCloseable {

  private final OciRegistry registry;
  private final Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2, work -> {
    Thread thread = new Thread(work, "pack-container");
    thread.setDaemon(true);
    return thread;
  });
  private final ExecutorService player = Executors.newSingleThreadExecutor(work -> {
    Thread thread = new Thread(work, "pack-container-player");
    thread.setDaemon(true);
    return thread;
  });
  private final AtomicInteger played = new AtomicInteger();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private Watch watch;

  public PackContainer(OciRegistry registry, Path dir) {
    this.registry = registry;
    this.dir = dir;
  }

  /** Plays every install Job that appears in {@code namespace} from now on, once each, off the watch's thread. */
  public PackContainer playEveryInstallJob(KubernetesClient client, String namespace) {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    watch = client.batch().v1().jobs().inNamespace(namespace)
        .withLabel(Labels.RESOURCE, DependencyInstallJob.RESOURCE).watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, Job job) {
            if (action == Action.ADDED && seen.add(job.getMetadata().getUid())) {
              player.execute(() -> {
                try {
                  play(job);
                } catch (Exception e) {
                  failures.add(job.getMetadata().getName() + ": " + e);
                }
              });
            }
          }

          @Override
          public void onClose(WatcherException cause) {
            if (cause != null) {
              failures.add("the watch of install Jobs in " + namespace + " ended: " + cause.getMessage());
            }
          }
        });
    return this;
  }

  /** Pushes what {@code install}'s pack container would push. */
  public void play(Job install) throws Exception {
    Container pack = install.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(DependencyInstallJob.PACK)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Job " + install.getMetadata().getName() + " has no "
            + DependencyInstallJob.PACK + " container"));
    play(pack.getArgs());
  }

  /** Pushes what a pack container with {@code args} would push. */
  public void play(List<String> args) throws IOException, RegistryFailure {
    FunctionRuntime runtime = Runtimes.parse(argument(args, "--runtime"))
        .orElseThrow(() -> new IllegalArgumentException("pack names no runtime of gitfn's: " + args));
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(Set.of(registry.address())),
        "gitfn-test-pack", pool, Duration.ofSeconds(30));
    DependencyImage image = new DependencyImage(assembler, Files.createTempDirectory(dir, "scratch-"));
    Path installed = installed(Files.createTempDirectory(dir, "installed-"));
    ImageName runtimeImage = ImageName.parse(argument(args, "--runtime-image"));
    ImageName target = ImageName.parse(argument(args, "--to"));
    if (args.contains("--runtime-present")) {
      image.pushDependencies(runtime, installed, runtimeImage, target);
    } else {
      image.push(runtime, installed, ImageName.parse(argument(args, "--base")), runtimeImage, target);
    }
    played.incrementAndGet();
  }

  /** How many install Jobs were played. */
  public int played() {
    return played.get();
  }

  /** What could not be played, with the Job's name. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  private static String argument(List<String> args, String flag) {
    int at = args.indexOf(flag);
    if (at < 0 || at + 1 >= args.size()) {
      throw new IllegalArgumentException("pack has no " + flag + ": " + args);
    }
    return args.get(at + 1);
  }

  /** A runtime folder and one package: the layers' contents do not matter where kwok runs the Pods. */
  private static Path installed(Path root) throws IOException {
    Files.createDirectories(root.resolve("runtime/node_modules/cloudevents"));
    Files.writeString(root.resolve("runtime/server.mjs"), "// gitfn's server\n");
    Path ms = Files.createDirectories(root.resolve("function/node_modules/ms"));
    Files.writeString(ms.resolve("index.js"), "module.exports = () => '1m';\n");
    return root;
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
    player.shutdownNow();
    pool.shutdownNow();
  }
}
