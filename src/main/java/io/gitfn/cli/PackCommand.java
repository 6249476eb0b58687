package io.gitfn.cli;

import io.gitfn.api.GoDuration;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.manifest.Runtimes;
import io.gitfn.packer.DependencyImage;
import io.gitfn.packer.InstallExit;
import io.gitfn.packer.WarmUp;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code gitfn pack}: the last step of a dependency install Job. It packs the folder the install filled into the
 * runtime layer, pushed as the runtime image on the runtime's base image, and the dependency layer, pushed as the
 * dependency image on the runtime image; with {@code --runtime-present}, only the latter. It runs with no privilege:
 * it reads files and talks to the registry, nothing else.
 */
@Command(name = "pack", mixinStandardHelpOptions = true,
    description = "Pack an installed Function's packages into its dependency image and push it (run by install Jobs).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:pushed", "1:the folder could not be packed or the registry refused; the message says why"})
final class PackCommand implements Callable<Integer> {

  static final int FAILED = 1;
  /**
   * How often a push is made when a registry cannot be reached, and the first pause between: 2, 4 and 8 s, so a
   * registry away for about 15 s costs a slower Job instead of a failed one, and one away for good fails it within
   * a minute or two (each try may wait jib's 20 s to connect).
   */
  static final int TRIES = 4;
  static final Duration FIRST_PAUSE = Duration.ofSeconds(2);

  @Option(names = "--runtime", required = true, paramLabel = "RUNTIME", description = "The Function's runtime.")
  String runtime;

  @Option(names = "--installed", required = true, paramLabel = "DIR",
      description = "The install's folder: runtime/ with the server and its packages, function/ with the Function's.")
  Path installed;

  @Option(names = "--base", required = true, paramLabel = "IMAGE@DIGEST",
      description = "The runtime's base image, by digest.")
  String base;

  @Option(names = "--runtime-image", required = true, paramLabel = "IMAGE:TAG",
      description = "The runtime image: the base image and the runtime layer, which the dependency image is made from.")
  String runtimeImage;

  @Option(names = "--runtime-present",
      description = "The registry has the runtime image already: pack and push only the Function's packages on it.")
  boolean runtimePresent;

  @Option(names = "--to", required = true, paramLabel = "IMAGE:TAG", description = "The dependency image to push.")
  String target;

  @Option(names = "--docker-config", paramLabel = "FILE",
      description = "A Docker config.json with the registries' credentials. Default: none, anonymous.")
  Path dockerConfig;

  @Option(names = "--insecure-registry", paramLabel = "HOST[:PORT]",
      description = "A registry spoken to over plain HTTP; may be repeated.")
  List<String> insecureRegistries = new ArrayList<>();

  @Option(names = "--wait-for", paramLabel = "FILE",
      description = "Start beside the install: wait until it writes its exit code to FILE, then pack if it is 0."
          + " The Job's deadline bounds the wait.")
  Path installExit;

  @Option(names = "--deadline", defaultValue = "10m", paramLabel = "DURATION",
      description = "How long the push may take, retries included (default: ${DEFAULT-VALUE}).")
  String deadline;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      FunctionRuntime language = runtime();
      ImageName from = parse("--base", base);
      if (!from.reference().startsWith("sha256:")) {
        throw new CommandException("--base " + base + " names a tag; name the base image by digest, so that the"
            + " image says what the packages were installed on");
      }
      ImageName to = parse("--to", target);
      Path scratch = Files.createTempDirectory("gitfn-pack-");
      ImageAssembler assembler = new ImageAssembler(access(), "gitfn-pack", pool, GoDuration.parse(deadline))
          .retryingUnreachable(TRIES, FIRST_PAUSE, warning -> warn(warning));
      ImageName runtimeOn = parse("--runtime-image", runtimeImage);
      if (installExit != null) {
        Thread warming = WarmUp.start(access(), runtimePresent ? runtimeOn : from);
        int code = InstallExit.await(installExit);
        warming.interrupt();
        if (code != 0) {
          throw new CommandException("the install ended with exit code " + code + "; nothing was packed");
        }
      }
      DependencyImage image = new DependencyImage(assembler, scratch);
      ImageAssembler.Pushed pushed = runtimePresent
          ? image.pushDependencies(language, installed, runtimeOn, to)
          : image.push(language, installed, from, runtimeOn, to);
      spec.commandLine().getOut().printf("pushed %s@%s: %d bytes uploaded, %d layers mounted, %d already there%n",
          to, pushed.digest(), pushed.bytesUploaded(), pushed.blobsMounted(), pushed.blobsPresent());
      return 0;
    } catch (CommandException | IOException | RegistryFailure e) {
      spec.commandLine().getErr().println("Error: " + e.getMessage());
      return FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      spec.commandLine().getErr().println("Error: stopped while waiting for the install");
      return FAILED;
    } finally {
      pool.shutdownNow();
    }
  }

  private void warn(String warning) {
    spec.commandLine().getErr().println("Warning: " + warning);
    spec.commandLine().getErr().flush();
  }

  private FunctionRuntime runtime() {
    return Runtimes.parse(runtime)
        .orElseThrow(() -> new CommandException("--runtime " + runtime + " is none of " + Runtimes.names()));
  }

  private RegistryAccess access() throws IOException {
    if (dockerConfig == null) {
      return RegistryAccess.anonymous(new HashSet<>(insecureRegistries));
    }
    try {
      return RegistryAccess.ofDockerConfig(Files.readString(dockerConfig), new HashSet<>(insecureRegistries));
    } catch (IllegalArgumentException e) {
      throw new CommandException(dockerConfig + ": " + e.getMessage());
    }
  }

  private static ImageName parse(String option, String image) {
    try {
      return ImageName.parse(image);
    } catch (IllegalArgumentException e) {
      throw new CommandException(option + ": " + e.getMessage());
    }
  }
}
