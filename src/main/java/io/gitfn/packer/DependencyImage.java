package io.gitfn.packer;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.RuntimeImageConfig;
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
 * Packs what an install left in a folder into the dependency image and pushes it: the base image, the runtime layer
 * (gitfn's runtime server and its installed packages) and the dependency layer (the Function's installed packages),
 * with the runtime's config ({@link RuntimeImageConfig}). Every Function whose dependency key matches builds on it by
 * adding its source layer.
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
   * Packs {@code installed} and pushes {@code target} on {@code base}.
   *
   * @param base the runtime's base image, by digest
   * @throws IOException when the folder is not an install's, or a layer passes its cap
   * @throws RegistryFailure when a registry refuses or fails
   */
  public ImageAssembler.Pushed push(FunctionRuntime runtime, Path installed, ImageName base, ImageName target)
      throws IOException, RegistryFailure {
    String packages = runtime.isNodejs() ? "node_modules" : ImageLayout.PYTHON_PACKAGES;
    String runtimeDir = ImageLayout.RUNTIME_DIR.substring(1);
    String functionDir = ImageLayout.FUNCTION_DIR.substring(1);
    NewLayer runtimeLayer = layer("runtime", FolderEntries.of(installed.resolve("runtime"), runtimeDir, LIMITS),
        "gitfn: the " + runtime.value() + " runtime server and its packages");
    NewLayer dependencyLayer = layer("dependencies",
        FolderEntries.of(installed.resolve("function").resolve(packages), functionDir + "/" + packages, LIMITS),
        "gitfn: the Function's installed dependencies");
    RuntimeImageConfig runs = RuntimeImageConfig.of(runtime);
    return assembler.assemble(base, List.of(runtimeLayer, dependencyLayer),
        config -> config.runs(runs.entrypoint(), runs.user(), runs.workingDir(), runs.env()), target);
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
