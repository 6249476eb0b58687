package io.gitfn.build;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.image.LayerEntry;
import io.gitfn.image.ReproducibleLayer;
import io.gitfn.workload.ImageLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The top layer of a Function's image: its handler and dependency file (and the lock file a Git source has) in
 * {@link ImageLayout#FUNCTION_DIR}, where the Dockerfiles copy them. Owned by root and readable by all, as a
 * Dockerfile's {@code COPY} leaves them, so the Function's user can read them and not change them.
 *
 * <p>The controller writes this layer in its own memory, so it is capped ({@link #LIMITS}): the files come from a
 * tenant's spec or repository. An inline Function's fit a ConfigMap (1 MiB), and the cap leaves room for a Git
 * source's lock file beside them.
 */
public final class SourceLayer {

  /** 2 MiB and a handful of entries: a few KiB is usual, a ConfigMap holds at most 1 MiB. */
  public static final ReproducibleLayer.Limits LIMITS = new ReproducibleLayer.Limits(2 * 1024 * 1024, 16);

  private static final int READABLE = 0644;

  private SourceLayer() {
  }

  /**
   * The layer's entries.
   *
   * @param dependencies the dependency file, normalised as Kyma reads it (blank Node.js dependencies are {@code {}})
   * @param lockFile the lock file beside it, or null
   */
  public static List<LayerEntry> entries(FunctionRuntime runtime, String source, String dependencies,
      String lockFile) {
    RuntimeFiles files = RuntimeFiles.of(runtime);
    String dir = ImageLayout.FUNCTION_DIR.substring(1);
    List<LayerEntry> entries = new ArrayList<>();
    entries.add(file(dir + "/" + files.source(), Objects.requireNonNull(source, "source")));
    entries.add(file(dir + "/" + files.dependencies(), RuntimeFiles.normalisedDependencies(runtime, dependencies)));
    if (lockFile != null && files.lock() != null) {
      entries.add(file(dir + "/" + files.lock(), lockFile));
    }
    return entries;
  }

  private static LayerEntry file(String path, String text) {
    return LayerEntry.file(path, READABLE, text.getBytes(StandardCharsets.UTF_8));
  }
}
