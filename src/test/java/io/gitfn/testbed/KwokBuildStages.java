package io.gitfn.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

/**
 * gitfn's kwok Stages ({@code kwok-build-stages.yaml} beside this class), on top of the module's:
 *
 * <ul>
 *   <li>an install Job's Pod stays Running until {@link KwokLayeredBuilds} ends it, after its push and its
 *       {@value #BUILD_DURATION};
 *   <li>a Function Pod whose image is on registry.invalid, or under a registry's
 *       {@value KwokLayeredBuilds#NEVER_READY} path, runs but never turns Ready.
 * </ul>
 */
public final class KwokBuildStages {

  /**
   * How long an install Job's Pod runs before it ends, counted from when it runs: a Go duration ({@code 3s},
   * {@code 1500ms}); anything else means no delay. Use {@link #buildDuration}.
   */
  public static final String BUILD_DURATION = "gitfn.test/build-duration";

  private static final String RESOURCE = "kwok-build-stages.yaml";

  private KwokBuildStages() {
  }

  /** Pod annotations that make each install take {@code duration}, for {@code BuildSettings.withPodAnnotations}. */
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
