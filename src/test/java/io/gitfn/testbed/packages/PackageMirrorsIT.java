package io.gitfn.testbed.packages;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mirrors answer as npm and pip expect, from a packages folder shaped like the build script's. */
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

  @Test
  void versionsCompareByNumberWithPreReleasesFirst() {
    List<String> versions = new java.util.ArrayList<>(List.of("1.10.0", "1.9.1", "1.10.0-rc.1", "1.2"));
    versions.sort(PackageMirrors::compareVersions);
    assertThat(versions).containsExactly("1.2", "1.9.1", "1.10.0-rc.1", "1.10.0");
  }
}
