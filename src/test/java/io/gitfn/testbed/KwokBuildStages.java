package io.gitfn.testbed;

import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

/**
 * gitfn's kwok Stages for build Pods ({@code kwok-build-stages.yaml} beside this class), on top of the module's,
 * which complete every Job Pod at once:
 *
 * <ul>
 *   <li>a build Pod whose {@code --build-arg=base_image=} argument is under {@value #FAILING_REGISTRY} fails with
 *       exit code 1 and the termination message its builder would give: buildah's when the container's command
 *       runs buildah, else kaniko's;
 *   <li>a build Pod annotated {@value #BUILD_DURATION} completes only after that long.
 * </ul>
 */
public final class KwokBuildStages {

  /** A Function with {@code runtimeImageOverride: registry.invalid/...} gets a build that fails. */
  public static final String FAILING_REGISTRY = "registry.invalid";

  /**
   * How long a build Pod runs before it completes, counted from when kwok sees it Running. kwok reads a Go
   * duration ({@code 3s}, {@code 1500ms}) or an RFC 3339 time to finish at; anything else, a bare number
   * included, means no delay. Use {@link #buildDuration}.
   */
  public static final String BUILD_DURATION = "gitfn.test/build-duration";

  private static final String RESOURCE = "kwok-build-stages.yaml";

  private KwokBuildStages() {
  }

  /**
   * The controller's build settings with buildah's build Jobs, which these Stages complete: what the tests of the
   * build-Job path run with. The default builder, layered, runs no build Job; its tests give it a registry
   * (LayeredBuilderIT).
   */
  public static BuildSettings jobBuilds() {
    return BuildSettings.defaults().withBuilder(ImageBuilder.of(ImageBuilder.Tool.BUILDAH));
  }

  /** Build Pod annotations that make each build take {@code duration}, for {@code BuildSettings.withPodAnnotations}. */
  public static Map<String, String> buildDuration(Duration duration) {
    return Map.of(BUILD_DURATION, duration.toMillis() + "ms");
  }

  /** Writes the Stages into {@code dir} for kwok's {@code --config}. */
  static Path writeTo(Path dir) {
    Path file = dir.resolve(RESOURCE);
    try (InputStream in = KwokBuildStages.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the test classpath beside " + KwokBuildStages.class);
      }
      Files.createDirectories(dir);
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
