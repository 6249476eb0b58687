package io.gitfn.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * helm and kustomize, as {@code scripts/build-testbed.sh} built them from their Go modules into
 * {@code <cache>/helm-<version>/helm} and {@code <cache>/kustomize-<version>/kustomize}, for the tests that render and
 * apply gitfn's install (charts/gitfn, config/default).
 */
public record InstallTools(Path helm, Path kustomize) {

  /** Finds both, or fails with the command that builds them. */
  public static InstallTools locate() {
    Path project = TestBedBinaries.projectDir();
    Properties versions = new Properties();
    try (InputStream in = Files.newInputStream(project.resolve("scripts/testbed.versions"))) {
      versions.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read scripts/testbed.versions under " + project, e);
    }
    Path cache = TestBedBinaries.cacheDir();
    InstallTools tools = new InstallTools(
        cache.resolve("helm-" + versions.getProperty("HELM_VERSION")).resolve("helm"),
        cache.resolve("kustomize-" + versions.getProperty("KUSTOMIZE_VERSION")).resolve("kustomize"));
    List<Path> missing = List.of(tools.helm, tools.kustomize).stream().filter(p -> !Files.isExecutable(p)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The install tools are not built: missing " + missing
          + ". Run `bash scripts/build-testbed.sh` (it builds helm and kustomize from their Go modules) and try again.");
    }
    return tools;
  }
}
