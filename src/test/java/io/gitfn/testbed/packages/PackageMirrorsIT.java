package io.gitfn.testbed.packages;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.testbed.NodeImages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mirrors answer as npm and pip expect, from a packages folder shaped like the build script's; and the real
 * npm and pip install, from the script's own folder alone, what Kyma's Function suites ask for
 * (src/test/kyma/serverless/SUITES.md).
 */
class PackageMirrorsIT {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path packages;
  private PackageMirrors mirrors;

  @BeforeEach
  void start() throws Exception {
    Files.createDirectories(packages.resolve("npm"));
    Files.createDirectories(packages.resolve("pypi"));
    Files.writeString(packages.resolve("npm/ms-2.1.3.tgz"), "ms tarball");
    Files.writeString(packages.resolve("npm/ms-2.1.2.tgz"), "older ms tarball");
    Files.writeString(packages.resolve("npm/types-node-20.0.0.tgz"), "types tarball");
    Files.writeString(packages.resolve("npm/index.json"), """
        {"ms": {"2.1.2": {"name": "ms", "version": "2.1.2", "dist": {"file": "ms-2.1.2.tgz", "integrity": "sha512-b"}},
                "2.1.3": {"name": "ms", "version": "2.1.3", "dependencies": {},
                          "dist": {"file": "ms-2.1.3.tgz", "integrity": "sha512-a", "shasum": "ab"}}},
         "@types/node": {"20.0.0": {"name": "@types/node", "version": "20.0.0",
                                    "dist": {"file": "types-node-20.0.0.tgz", "integrity": "sha512-c"}}}}
        """);
    Files.writeString(packages.resolve("pypi/jaraco_functools-4.6.0-py3-none-any.whl"), "wheel");
    Files.writeString(packages.resolve("pypi/index.json"), """
        {"jaraco-functools": [{"file": "jaraco_functools-4.6.0-py3-none-any.whl", "sha256": "0123"}]}
        """);
    mirrors = PackageMirrors.start(packages, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() {
    mirrors.close();
  }

  private static HttpResponse<String> get(URI uri) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void npmGetsEveryVersionWithItsTarballHereAndTheNewestAsLatest() throws Exception {
    HttpResponse<String> response = get(mirrors.npmRegistryUrl().resolve("ms"));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode document = JSON.readTree(response.body());
    assertThat(document.at("/dist-tags/latest").asText()).isEqualTo("2.1.3");
    assertThat(document.at("/versions/2.1.3/dist/tarball").asText())
        .isEqualTo(mirrors.npmRegistryUrl() + "ms/-/ms-2.1.3.tgz");
    assertThat(document.at("/versions/2.1.3/dist/integrity").asText()).isEqualTo("sha512-a");
    assertThat(document.at("/versions/2.1.3/dist/file").isMissingNode()).isTrue();
    assertThat(get(URI.create(document.at("/versions/2.1.3/dist/tarball").asText())).body()).isEqualTo("ms tarball");
  }

  @Test
  void aScopedPackageIsFoundWithItsSlashEncodedAsNpmSendsIt() throws Exception {
    JsonNode document = JSON.readTree(get(mirrors.npmRegistryUrl().resolve("@types%2fnode")).body());

    String tarball = document.at("/versions/20.0.0/dist/tarball").asText();
    assertThat(get(URI.create(tarball)).body()).isEqualTo("types tarball");
    assertThat(JSON.readTree(get(mirrors.npmRegistryUrl().resolve("@types/node")).body())).as("unescaped")
        .isEqualTo(document);
  }

  @Test
  void pipGetsAPep503PageWithHashesUnderTheNormalisedName() throws Exception {
    HttpResponse<String> page = get(mirrors.pipIndexUrl().resolve("Jaraco.Functools/"));

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains(
        "<a href=\"../../files/jaraco_functools-4.6.0-py3-none-any.whl#sha256=0123\">");
    assertThat(get(mirrors.pipIndexUrl().resolve("../files/jaraco_functools-4.6.0-py3-none-any.whl")).body())
        .isEqualTo("wheel");
    assertThat(get(mirrors.pipIndexUrl()).body()).contains("<a href=\"jaraco-functools/\">");
  }

  @Test
  void whatTheFolderLacksIsNotFoundSoABuildCannotReachElsewhere() throws Exception {
    assertThat(get(mirrors.npmRegistryUrl().resolve("express")).statusCode()).isEqualTo(404);
    assertThat(get(mirrors.npmRegistryUrl().resolve("ms/-/index.json")).statusCode()).isEqualTo(404);
    assertThat(get(mirrors.pipIndexUrl().resolve("requests/")).statusCode()).isEqualTo(404);
    assertThat(get(mirrors.pipIndexUrl().resolve("../files/index.json")).statusCode()).isEqualTo(404);
    assertThat(mirrors.requests()).contains("GET /npm/express", "GET /pypi/simple/requests/");
  }

  @Test
  void theSecretsFilesPointNpmAndPipHere() {
    assertThat(mirrors.npmrc()).startsWith("registry=http://127.0.0.1:").contains("/npm/\n");
    assertThat(mirrors.pipConf()).contains("index-url = " + mirrors.pipIndexUrl())
        .contains("trusted-host = 127.0.0.1\n");
  }

  /**
   * npm 10 (the nodejs22 image's own) with the {@code .npmrc} Kyma's simple suite writes when its registry URL
   * carries a second line: the {@code @kyma} stand-in through the scope's registry, axios 0.26.1 and its
   * follow-redirects through the default one.
   */
  @Test
  void theImagesNpmInstallsKymasScopedStandInAndAxiosFromTheBuiltMirror(@TempDir Path work) throws Exception {
    NodeImages images = NodeImages.build();
    try (PackageMirrors built = PackageMirrors.start(images.packages(), InetAddress.getLoopbackAddress())) {
      Path node = unpackNode(images, "nodejs22", work);
      Path function = Files.createDirectories(work.resolve("function"));
      Files.writeString(function.resolve("package.json"), """
          {"name": "hellobasic", "version": "0.0.1",
           "dependencies": {"@kyma/kyma-npm-test": "1.0.0", "axios": "0.26.1"}}
          """);
      String registry = built.npmRegistryUrl().toString();
      Files.writeString(function.resolve(".npmrc"),
          "@kyma:registry=" + registry + "\nregistry=" + registry + "\nalways-auth=true\n");

      // By its path: the command is looked up on this JVM's PATH, not the child's; npm's `env node` uses the
      // child's.
      Path bin = node.resolve("usr/local/bin");
      run(function, Map.of("HOME", work.toString(), "PATH", bin + ":/usr/bin:/bin"), bin.resolve("npm").toString(),
          "install", "--no-audit", "--no-fund", "--no-update-notifier", "--cache", work.resolve("cache").toString());

      Path modules = function.resolve("node_modules");
      JsonNode standIn = JSON.readTree(modules.resolve("@kyma/kyma-npm-test/package.json").toFile());
      assertThat(standIn.path("version").asText()).isEqualTo("1.0.0");
      assertThat(standIn.path("description").asText()).contains("gitfn's stand-in");
      assertThat(JSON.readTree(modules.resolve("axios/package.json").toFile()).path("version").asText())
          .isEqualTo("0.26.1");
      assertThat(JSON.readTree(modules.resolve("follow-redirects/package.json").toFile()).path("version").asText())
          .isEqualTo("1.16.3");
      assertThat(built.requests()).contains("GET /npm/@kyma%2fkyma-npm-test",
          "GET /npm/@kyma%2fkyma-npm-test/-/kyma-kyma-npm-test-1.0.0.tgz");
    }
  }

  /**
   * pip, from the built index alone, installs what the simple suite's Python Function asks for after its update,
   * with no warning (the stand-in's RECORD is whole), and arrow then imports.
   */
  @Test
  void pipInstallsRequestsArrowAndTheKymaStandInFromTheBuiltIndexAlone(@TempDir Path work) throws Exception {
    NodeImages images = NodeImages.build();
    try (PackageMirrors built = PackageMirrors.start(images.packages(), InetAddress.getLoopbackAddress())) {
      Path target = work.resolve("packages");
      Map<String, String> env = Map.of("HOME", work.toString(), "PIP_CONFIG_FILE", "/dev/null");

      // root-user-action: the tests run as root, which pip warns about otherwise.
      String install = run(work, env, "python3", "-m", "pip", "install", "--disable-pip-version-check",
          "--root-user-action=ignore", "--no-cache-dir", "--index-url", built.pipIndexUrl().toString(),
          "--target", target.toString(), "requests==2.31.0", "arrow==0.15.8", "kyma-pypi-test==1.0.0");

      assertThat(install).doesNotContainIgnoringCase("warning");
      String imported = run(work, Map.of("PYTHONPATH", target.toString()), "python3", "-c",
          "import arrow, kyma_pypi_test, requests; print(arrow.__version__, requests.__version__, "
              + "kyma_pypi_test.__version__, arrow.get('2024-01-02').year)");
      assertThat(imported.strip()).isEqualTo("0.15.8 2.31.0 1.0.0 2024");
      assertThat(built.requests()).contains("GET /pypi/simple/kyma-pypi-test/",
          "GET /pypi/files/kyma_pypi_test-1.0.0-py3-none-any.whl");
    }
  }

  @Test
  void versionsCompareByNumberWithPreReleasesFirst() {
    List<String> versions = new java.util.ArrayList<>(List.of("1.10.0", "1.9.1", "1.10.0-rc.1", "1.2"));
    versions.sort(PackageMirrors::compareVersions);
    assertThat(versions).containsExactly("1.2", "1.9.1", "1.10.0-rc.1", "1.10.0");
  }

  /**
   * The image's last layer (node and npm under usr/local) unpacked into {@code dir}: npm runs on this machine as
   * it does in the image, since node needs only glibc.
   */
  private static Path unpackNode(NodeImages images, String name, Path dir) throws IOException {
    Path layout = Files.createDirectories(dir.resolve("layout"));
    run(dir, Map.of(), "tar", "-xf", images.archive(name).toString(), "-C", layout.toString());
    String manifest = JSON.readTree(layout.resolve("index.json").toFile()).at("/manifests/0/digest").asText();
    JsonNode layers = JSON.readTree(blob(layout, manifest).toFile()).path("layers");
    Path root = Files.createDirectories(dir.resolve("image"));
    run(dir, Map.of(), "tar", "-xzf", blob(layout, layers.get(layers.size() - 1).path("digest").asText()).toString(),
        "-C", root.toString());
    return root;
  }

  private static Path blob(Path layout, String digest) {
    return layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
  }

  /** Runs a command in {@code dir} with {@code env} added to this one's; returns its output, or fails with it. */
  private static String run(Path dir, Map<String, String> env, String... command) {
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
      builder.environment().putAll(env);
      Process process = builder.start();
      String output = new String(process.getInputStream().readAllBytes());
      assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("%s ended", List.of(command)).isTrue();
      assertThat(process.exitValue()).as("%s exit code, output:%n%s", List.of(command), output).isZero();
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + List.of(command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
