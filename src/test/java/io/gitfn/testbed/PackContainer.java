package io.gitfn.testbed;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.manifest.Runtimes;
import io.gitfn.packer.DependencyImage;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import io.gitfn.workload.ImageLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What an install Job's {@code pack} container does, played by a test where no container runs: from the container's
 * own arguments, it pushes the runtime image (unless {@code --runtime-present}) and the dependency image to the
 * registry, with a small install the test lays out instead of npm's or pip's. On the kwok cluster,
 * {@link KwokLayeredBuilds} plays every install Job's Pod with it.
 */
public final class PackContainer implements AutoCloseable {

  private final OciRegistry registry;
  private final Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2, work -> {
    Thread thread = new Thread(work, "pack-container");
    thread.setDaemon(true);
    return thread;
  });

  public PackContainer(OciRegistry registry, Path dir) {
    this.registry = registry;
    this.dir = dir;
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
    Set<String> insecure = new HashSet<>(Set.of(registry.address()));
    for (int i = 0; i + 1 < args.size(); i++) {
      if (args.get(i).equals("--insecure-registry")) {
        insecure.add(args.get(i + 1));
      }
    }
    ImageAssembler assembler = new ImageAssembler(RegistryAccess.anonymous(insecure), "gitfn-test-pack", pool,
        Duration.ofSeconds(30));
    DependencyImage image = new DependencyImage(assembler, Files.createTempDirectory(dir, "scratch-"));
    Path installed = installed(Files.createTempDirectory(dir, "installed-"));
    ImageName runtimeImage = ImageName.parse(argument(args, "--runtime-image"));
    ImageName target = ImageName.parse(argument(args, "--to"));
    if (args.contains("--runtime-present")) {
      image.pushDependencies(runtime, installed, runtimeImage, target);
    } else {
      image.push(runtime, installed, ImageName.parse(argument(args, "--base")), runtimeImage, target);
    }
  }

  private static String argument(List<String> args, String flag) {
    int at = args.indexOf(flag);
    if (at < 0 || at + 1 >= args.size()) {
      throw new IllegalArgumentException("pack has no " + flag + ": " + args);
    }
    return args.get(at + 1);
  }

  /**
   * A runtime folder and one package, for Node.js and for Python: the layers' contents do not matter where kwok runs
   * the Pods.
   */
  private static Path installed(Path root) throws IOException {
    Files.createDirectories(root.resolve("runtime/node_modules/cloudevents"));
    Files.writeString(root.resolve("runtime/server.mjs"), "// gitfn's server\n");
    Path ms = Files.createDirectories(root.resolve("function/node_modules/ms"));
    Files.writeString(ms.resolve("index.js"), "module.exports = () => '1m';\n");
    Path six = Files.createDirectories(root.resolve("function").resolve(ImageLayout.PYTHON_PACKAGES));
    Files.writeString(six.resolve("six.py"), "PY3 = True\n");
    return root;
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
