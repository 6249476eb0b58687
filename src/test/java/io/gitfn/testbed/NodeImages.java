package io.gitfn.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The images and package files of {@code scripts/build-node-images.py}: the base images of gitfn's runtimes, a
 * stand-in for the {@code nginx} image Kyma's tests run, and the npm packages and wheels of gitfn's runtime
 * servers and of test Functions for {@code PackageMirrors}.
 * {@link #build()} runs the script, which returns in about a second when they are built already.
 *
 * @param dir {@code ${GITFN_TESTENV_DIR:-~/.cache/gitfn-testenv}/node-images-<key>}
 * @param manifest its {@code images.json}
 */
public record NodeImages(Path dir, JsonNode manifest) {

  /**
   * A stand-in for {@code docker.io/library/nginx:latest}, which Kyma's tracing suite runs and this machine cannot
   * pull: python312's layer serving {@code GET /} with 200 on port 80, as root. Push it as
   * {@code library/nginx:latest} to a registry that containerd takes for {@code docker.io}.
   */
  public static final String HTTP_SERVER = "http-server";

  /** The images the script builds, by the names {@link #archive} and {@link #reference} take. */
  public static final List<String> NAMES = List.of("nodejs20", "nodejs22", "nodejs24", "python312", HTTP_SERVER);
  /** The runtimes' base images among them. */
  public static final List<String> RUNTIMES = List.of("nodejs20", "nodejs22", "nodejs24", "python312");

  /**
   * Runs the build script and reads what it built. A cold build downloads from Debian's archive, PyPI and the npm
   * registry (about 100 s here); CI builds them before the tests, so that tests only find them.
   */
  public static NodeImages build() {
    Path script = TestBedBinaries.projectDir().resolve("scripts/build-node-images.py");
    try {
      Process process = new ProcessBuilder("python3", script.toString()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int exit = process.waitFor();
      List<String> lines = output.strip().lines().toList();
      if (exit != 0 || lines.isEmpty() || !lines.get(lines.size() - 1).endsWith("images.json")) {
        throw new IllegalStateException("`python3 " + script + "` failed (exit " + exit + "):\n" + output);
      }
      Path images = Path.of(lines.get(lines.size() - 1));
      return new NodeImages(images.getParent(), new ObjectMapper().readTree(images.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building the node images", e);
    }
  }

  /** The OCI archive of an image, for {@code oci-archive:}, {@code skopeo copy} or {@code ctr images import}. */
  public Path archive(String name) {
    Path archive = dir.resolve(image(name).path("archive").asText());
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException(archive + " is missing; delete " + dir + " and build the images again");
    }
    return archive;
  }

  /** The repository and tag the image should have in a registry, without the registry host. */
  public String reference(String name) {
    return image(name).path("reference").asText();
  }

  /** {@code npm/} and {@code pypi/}, with the files and {@code index.json} that {@code PackageMirrors} serves. */
  public Path packages() {
    return dir.resolve("packages");
  }

  private JsonNode image(String name) {
    JsonNode image = manifest.path("images").path(name);
    if (image.isMissingNode()) {
      throw new IllegalArgumentException("no image `" + name + "` in " + dir.resolve("images.json")
          + "; there are " + NAMES);
    }
    return image;
  }
}
