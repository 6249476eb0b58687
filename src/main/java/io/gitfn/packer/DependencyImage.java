package io.gitfn.packer;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.RuntimeImageConfig;
import io.gitfn.image.ImageConfig;
import io.gitfn.image.LayerDigests;
import io.gitfn.image.LayerEntry;
import io.gitfn.image.ReproducibleLayer;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.NewLayer;
import io.gitfn.registry.RegistryFailure;
import io.gitfn.workload.ImageLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Packs what an install left in a folder and pushes it as two images: the runtime image (the base image and the
 * runtime layer: gitfn's runtime server and its installed packages) and, on it, the dependency image (plus the
 * dependency layer: the Function's installed packages), each with the runtime's config ({@link RuntimeImageConfig}).
 * Every Function whose dependency key matches builds on the dependency image by adding its source layer; every
 * install Job of the same runtime key after the first starts from the runtime image and packs only its dependency
 * layer.
 *
 * <p>The folder has the layout the install script leaves: {@code runtime/} with the server's files and its packages,
 * {@code function/node_modules} or {@code function/packages} with the Function's. The source files the install read
 * are not packed: they go into each Function's own source layer. Nothing else is read, so a package-registry config
 * mounted elsewhere for the install never reaches a layer.
 */
public final class DependencyImage {

  /**
   * The caps of the two layers: a Function's packages rarely pass a few hundred MiB; an install that writes more
   * (or a script that fills the disk on purpose) fails the Job with the cap's name instead of filling the registry.
   */
  public static final ReproducibleLayer.Limits LIMITS = new ReproducibleLayer.Limits(2L << 30, 250_000);

  private final ImageAssembler assembler;
  private final Path scratch;

  /** @param scratch where the compressed layers are written before they are pushed */
  public DependencyImage(ImageAssembler assembler, Path scratch) {
    this.assembler = assembler;
    this.scratch = scratch;
  }

  /**
   * Packs {@code installed} into the runtime image on {@code base}, then the dependency image {@code target} on it.
   *
   * @param base the runtime's base image, by digest
   * @throws IOException when the folder is not an install's, or a layer passes its cap
   * @throws RegistryFailure when a registry refuses or fails
   */
  public ImageAssembler.Pushed push(FunctionRuntime runtime, Path installed, ImageName base, ImageName runtimeImage,
      ImageName target) throws IOException, RegistryFailure {
    pushRuntime(runtime, installed, base, runtimeImage);
    return pushDependencies(runtime, installed, runtimeImage, target);
  }

  /**
   * Packs {@code installed}'s {@code runtime/} and pushes {@code runtimeImage}: {@code base} with the runtime layer
   * on top, and the runtime's config.
   */
  public ImageAssembler.Pushed pushRuntime(FunctionRuntime runtime, Path installed, ImageName base,
      ImageName runtimeImage) throws IOException, RegistryFailure {
    NewLayer runtimeLayer = layer("runtime", FolderEntries.of(installed.resolve("runtime"),
        ImageLayout.RUNTIME_DIR.substring(1), LIMITS), "gitfn: the " + runtime.value() + " runtime server and its packages");
    return assembler.assemble(base, List.of(runtimeLayer), config -> runs(runtime, config), runtimeImage);
  }

  /**
   * Packs {@code installed}'s Function packages and pushes {@code target}: {@code runtimeImage} with the dependency
   * layer on top. Every dependency image is made this way, whether the install Job made the runtime image too or
   * found it in the registry, so the same inputs give the same bytes either way.
   */
  public ImageAssembler.Pushed pushDependencies(FunctionRuntime runtime, Path installed, ImageName runtimeImage,
      ImageName target) throws IOException, RegistryFailure {
    String packages = runtime.isNodejs() ? "node_modules" : ImageLayout.PYTHON_PACKAGES;
    NewLayer dependencyLayer = layer("dependencies",
        FolderEntries.of(installed.resolve("function").resolve(packages),
            ImageLayout.FUNCTION_DIR.substring(1) + "/" + packages, LIMITS),
        "gitfn: the Function's installed dependencies");
    return assembler.assemble(runtimeImage, List.of(dependencyLayer), config -> runs(runtime, config), target);
  }

  private static ImageConfig runs(FunctionRuntime runtime, ImageConfig config) {
    RuntimeImageConfig runs = RuntimeImageConfig.of(runtime);
    return config.runs(runs.entrypoint(), runs.user(), runs.workingDir(), runs.env());
  }

  private NewLayer layer(String name, List<LayerEntry> entries, String createdBy) throws IOException {
    Path file = scratch.resolve(name + ".tar.gz");
    LayerDigests digests;
    try (OutputStream out = Files.newOutputStream(file)) {
      digests = ReproducibleLayer.write(entries, out, LIMITS);
    }
    return new NewLayer(digests, () -> Files.newInputStream(file), createdBy);
  }
}
