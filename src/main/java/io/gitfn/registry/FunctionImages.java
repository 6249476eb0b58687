package io.gitfn.registry;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.LayerKeys;
import io.gitfn.build.RuntimeFiles;
import io.gitfn.build.RuntimeImageConfig;
import io.gitfn.build.SourceLayer;
import io.gitfn.image.LayerDigests;
import io.gitfn.image.LayerTooLargeException;
import io.gitfn.image.ReproducibleLayer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * A Function's image made without a Job: its source layer on the dependency image that an install Job pushed once
 * for its keys (docs/functions.md#layered-images). The source layer is written in memory, capped by
 * {@link SourceLayer#LIMITS}; the layers below are mounted within the registry and never downloaded.
 *
 * <p>{@link #build} first writes the source layer, so that a source over the cap is refused before a registry is asked
 * or an install Job runs for it. It then names the base image by digest (one manifest request), and asks for the
 * dependency image (one more). Without it, it asks for the runtime image (a third), says which dependency image to make, and from
 * what, and pushes nothing.
 */
public final class FunctionImages {

  /** Below the namespace: where dependency images live, beside the Functions' own repositories. */
  public static final String DEPENDENCY_REPOSITORY = "gitfn-dependencies";

  private final ImageAssembler assembler;

  public FunctionImages(ImageAssembler assembler) {
    this.assembler = assembler;
  }

  /**
   * What one Function's image needs.
   *
   * @param base the runtime's base image, by tag or digest
   * @param runtimeFilesDigest {@code RuntimeSource.digest()} of the runtime's files
   * @param dependencies the dependency file's text
   * @param lockFile the lock file beside it, or null
   * @param registrySettings {@code PackageRegistrySettings.digest} of the package-registry config, empty without one
   * @param dependencyRepository where dependency images live, such as {@code registry/team/gitfn/dependencies}
   * @param target the Function's image, tagged with its content key
   */
  public record Request(FunctionRuntime runtime, ImageName base, String runtimeFilesDigest, String source,
      String dependencies, String lockFile, String registrySettings, ImageName dependencyRepository,
      ImageName target) {
    public Request {
      Objects.requireNonNull(runtime, "runtime");
      Objects.requireNonNull(source, "source");
    }

    /**
     * What {@code fn}'s image of {@code build} is made of, as the controller's {@code settings} say. Every image
     * name comes from the controller's {@code --registry} and the Function's namespace and name, never from a
     * tenant's field; the check here keeps it so.
     *
     * @param registrySettings {@code PackageRegistrySettings.digest} of the namespace's package-registry config,
     *     empty without one
     * @throws IllegalArgumentException when the plan's image is not below {@code <registry>/<namespace>/}
     */
    public static Request of(Function fn, FunctionBuildPlan build, BuildSettings settings, String registrySettings) {
      FunctionRuntime runtime = fn.getSpec().getRuntime();
      RuntimeFiles files = RuntimeFiles.of(runtime);
      String inNamespace = settings.registry() + "/" + FunctionBuildPlan.imageNamespace(fn) + "/";
      // Its tag is each dependency image's own (LayerKeys.dependencyTag); this one only names the repository.
      ImageName dependencies = ImageName.parse(inNamespace + DEPENDENCY_REPOSITORY + ":latest");
      if (!build.image().startsWith(inNamespace) || !dependencies.toString().startsWith(inNamespace)) {
        throw new IllegalArgumentException("image " + build.image() + " is not below " + inNamespace
            + ", where this Function's images are pushed");
      }
      return new Request(runtime, ImageName.parse(ContentKey.baseImage(fn, settings)),
          settings.runtimes().of(runtime).digest(), build.context().data().get(files.source()),
          build.context().data().get(files.dependencies()), build.lockFile(), registrySettings, dependencies,
          ImageName.parse(build.image()));
    }
  }

  /** What {@link #build} did, or {@link #find} found. */
  public sealed interface Outcome {
    /** The image is pushed: the digest the Deployment names, and how much travelled. */
    record Pushed(ImageAssembler.Pushed push, ImageName dependencyImage) implements Outcome {}

    /** The dependency image is there ({@link #find} only): a push would need no Job. */
    record DependenciesPresent(ImageName dependencyImage) implements Outcome {}

    /**
     * The dependency image is not there yet: an install Job must make {@code dependencyImage} from
     * {@code runtimeImage}, and first make that on {@code base} unless {@code runtimePresent}.
     */
    record NeedsDependencies(ImageName dependencyImage, ImageName base, ImageName runtimeImage,
        boolean runtimePresent) implements Outcome {}
  }

  /**
   * Pushes the Function's image if its dependency image exists, else says which one to make.
   *
   * @throws RegistryFailure when a registry refuses, fails or cannot be reached, or has no base image
   * @throws LayerTooLargeException when the source layer passes its cap; no registry was asked
   */
  public Outcome build(Request request) throws RegistryFailure, LayerTooLargeException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LayerDigests digests;
    try {
      digests = ReproducibleLayer.write(SourceLayer.entries(request.runtime(), request.source(),
          request.dependencies(), request.lockFile()), bytes, SourceLayer.LIMITS);
    } catch (LayerTooLargeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("writing a layer in memory", e); // a ByteArrayOutputStream does not fail
    }
    byte[] layer = bytes.toByteArray();
    Outcome found = find(request);
    if (!(found instanceof Outcome.DependenciesPresent present)) {
      return found;
    }
    NewLayer source = new NewLayer(digests, () -> new ByteArrayInputStream(layer), "gitfn: the Function's source");
    RuntimeImageConfig runs = RuntimeImageConfig.of(request.runtime());
    ImageAssembler.Pushed pushed = assembler.assemble(present.dependencyImage(), List.of(source),
        config -> config.runs(runs.entrypoint(), runs.user(), runs.workingDir(), runs.env()), request.target());
    return new Outcome.Pushed(pushed, present.dependencyImage());
  }

  /**
   * Whether the Function's dependency image exists, pushing nothing: {@link Outcome.DependenciesPresent} or
   * {@link Outcome.NeedsDependencies}. What {@code gitfn render --with-workloads} asks.
   *
   * @throws RegistryFailure when a registry refuses, fails or cannot be reached, or has no base image
   */
  public Outcome find(Request request) throws RegistryFailure {
    String baseDigest = assembler.find(request.base())
        .orElseThrow(() -> new RegistryFailure("the base image " + request.base() + " is not in its registry", null));
    ImageName base = request.base().at(baseDigest);
    ContentKey runtimeLayer = LayerKeys.runtime(request.runtime(), request.runtimeFilesDigest(), baseDigest);
    ContentKey dependencyLayer = LayerKeys.dependencies(request.runtime(), baseDigest, request.dependencies(),
        request.lockFile(), request.registrySettings());
    ImageName dependencyImage = request.dependencyRepository()
        .at(LayerKeys.dependencyTag(runtimeLayer, dependencyLayer));
    if (assembler.find(dependencyImage).isPresent()) {
      return new Outcome.DependenciesPresent(dependencyImage);
    }
    ImageName runtimeImage = request.dependencyRepository().at(LayerKeys.runtimeTag(runtimeLayer));
    return new Outcome.NeedsDependencies(dependencyImage, base, runtimeImage, assembler.find(runtimeImage).isPresent());
  }
}
