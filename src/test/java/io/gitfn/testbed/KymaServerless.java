package io.gitfn.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Kyma's side of the Kyma side-by-side benchmark, from {@code scripts/build-kyma-serverless.py}: Kyma's buildless
 * Function controller ({@code manager}) and Kyma's {@code nodejs24} runtime image, built without a container
 * engine on the test bed's node image. {@link #build(Path)} runs the script, which returns in about a second when
 * they are built already.
 *
 * <p>The Kyma checkout must be given: neither GitHub nor the Go module proxy serves
 * {@code github.com/kyma-project/serverless} on this kind of machine, so nothing here can fetch it.
 *
 * @param dir {@code ${GITFN_TESTENV_DIR:-~/.cache/gitfn-testenv}/kyma-serverless-<key>}
 * @param manifest its {@code kyma.json}
 */
public record KymaServerless(Path dir, JsonNode manifest) {

  /** The runtimes the script builds, by the names {@link #archive} and {@link #reference} take. */
  public static final List<String> RUNTIMES = List.of("nodejs24");

  /** A cold build is a go build of the controller and an npm install: minutes, not this long. */
  private static final long TIMEOUT_MINUTES = 20;

  /** How much of the script's output a failure quotes: its error comes last. */
  private static final int QUOTED_LINES = 40;

  /**
   * Runs the build script on {@code kymaCheckout} (a checkout of github.com/kyma-project/serverless; its commit
   * comes from git, or from {@code KYMA_SERVERLESS_COMMIT} for an exported tree) and reads what it built.
   */
  public static KymaServerless build(Path kymaCheckout) {
    Path script = TestBedBinaries.projectDir().resolve("scripts/build-kyma-serverless.py");
    Path log = null;
    try {
      // The output goes to a file rather than a pipe, so that waiting with a time limit cannot fill the pipe.
      log = Files.createTempFile("build-kyma-serverless-", ".log");
      Process process = new ProcessBuilder("python3", script.toString(), kymaCheckout.toString())
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      boolean finished = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
      if (!finished) {
        // go build and npm run as the script's children; they would hold the cache's lock.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
      }
      List<String> lines = Files.readString(log, StandardCharsets.UTF_8).strip().lines().toList();
      if (!finished || process.exitValue() != 0 || lines.isEmpty()
          || !lines.get(lines.size() - 1).endsWith("kyma.json")) {
        String why = finished ? "failed (exit " + process.exitValue() + ")" : "took over " + TIMEOUT_MINUTES + " min";
        throw new IllegalStateException("`python3 " + script + " " + kymaCheckout + "` " + why + "; its last lines:\n"
            + String.join("\n", lines.subList(Math.max(0, lines.size() - QUOTED_LINES), lines.size())));
      }
      Path kyma = Path.of(lines.get(lines.size() - 1));
      return new KymaServerless(kyma.getParent(), new ObjectMapper().readTree(kyma.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building Kyma's controller and runtime image", e);
    } finally {
      if (log != null) {
        try {
          Files.deleteIfExists(log);
        } catch (IOException ignored) {
          // a stray log in the temporary folder is no reason to fail a build that worked
        }
      }
    }
  }

  /** Kyma's controller binary (static, linux/amd64), to run as a process against the test bed's API server. */
  public Path manager() {
    return file(manifest.path("manager").asText());
  }

  /**
   * The environment Kyma's controller image gives {@link #manager()} ({@code GODEBUG=fips140=off,tlsmlkem=0}):
   * it is built with {@code GOFIPS140=v1.0.0} as Kyma's Dockerfile builds it, and should run as Kyma runs it.
   */
  public Map<String, String> managerEnv() {
    Map<String, String> env = new TreeMap<>();
    manifest.path("managerEnv").properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }

  /** The OCI archive of a runtime image, for {@code oci-archive:}, {@code skopeo copy} or {@code ctr images import}. */
  public Path archive(String runtime) {
    return file(image(runtime).path("archive").asText());
  }

  /** The repository and tag the runtime image should have in a registry, without the registry host. */
  public String reference(String runtime) {
    return image(runtime).path("reference").asText();
  }

  /** The Kyma commit these were built from, or {@code unknown} when the script was not told it. */
  public String commit() {
    return manifest.path("commit").asText("unknown");
  }

  private Path file(String name) {
    Path file = dir.resolve(name);
    if (name.isEmpty() || !Files.isRegularFile(file)) {
      throw new IllegalStateException(file + " is missing; delete " + dir + " and run the build again");
    }
    return file;
  }

  private JsonNode image(String runtime) {
    JsonNode image = manifest.path("images").path(runtime);
    if (image.isMissingNode()) {
      throw new IllegalArgumentException("no runtime `" + runtime + "` in " + dir.resolve("kyma.json")
          + "; there are " + RUNTIMES);
    }
    return image;
  }
}
