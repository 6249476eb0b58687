package io.gitfn.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where {@code scripts/build-testbed.sh} put the binaries of the versions in {@code scripts/testbed.versions}.
 * Both compute the same directory, so a version bump in that one file is all it takes.
 */
public record TestBedBinaries(
    Path dir, String kubernetesVersion, String etcdVersion, String kwokVersion, Path giteaDir) {

  static final List<String> NAMES =
      List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok");

  /** Finds the binaries, or fails with the command that builds them. */
  public static TestBedBinaries locate() {
    Properties versions = versions();
    String k8s = versions.getProperty("KUBERNETES_VERSION");
    String etcd = versions.getProperty("ETCD_VERSION");
    String kwok = versions.getProperty("KWOK_VERSION");
    Path cache = cacheDir();
    Path root = cache.resolve("k8s-" + k8s + "_etcd-" + etcd + "_kwok-" + kwok);
    Path gitea = cache.resolve("gitea-" + versions.getProperty("GITEA_VERSION"));
    TestBedBinaries binaries = new TestBedBinaries(root, k8s, etcd, kwok, gitea);
    binaries.verify();
    return binaries;
  }

  /** {@code scripts/testbed.versions}: each binary's version, by the name the build script reads. */
  public static Properties versions() {
    Path project = projectDir();
    Properties versions = new Properties();
    try (InputStream in = Files.newInputStream(project.resolve("scripts/testbed.versions"))) {
      versions.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read scripts/testbed.versions under " + project, e);
    }
    return versions;
  }

  /** The cache root the build script writes to: {@code $GITFN_TESTENV_DIR} or {@code ~/.cache/gitfn-testenv}. */
  public static Path cacheDir() {
    String override = System.getenv("GITFN_TESTENV_DIR");
    return override != null && !override.isBlank()
        ? Path.of(override)
        : Path.of(System.getProperty("user.home"), ".cache", "gitfn-testenv");
  }

  public static Path projectDir() {
    return Path.of(System.getProperty("gitfn.project.dir", System.getProperty("user.dir")));
  }

  /** target/gitfn-image.tar, gitfn's own image, which {@code mvn verify} builds before the integration tests. */
  public static Path controllerImage() {
    Path archive = projectDir().resolve("target/gitfn-image.tar");
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException(archive + " is missing: `mvn -B verify` builds it before the integration"
          + " tests (Jib, execution `image`), as does `mvn -B -Pimage package`");
    }
    return archive;
  }

  public Path binary(String name) {
    return dir.resolve("bin").resolve(name);
  }

  /** The kwok Stage set the build script took from kwok's module. */
  public Path kwokStages() {
    return dir.resolve("kwok-stages.yaml");
  }

  /** The Gitea binary, built from its Go module like the rest. */
  public Path gitea() {
    return giteaDir.resolve("gitea");
  }

  /** Gitea's module source tree, where a Gitea built without bindata finds its templates and options. */
  public Path giteaSources() {
    try {
      return Path.of(Files.readString(giteaDir.resolve("source-dir")).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("Gitea is not built: " + giteaDir + "/source-dir is missing. Run `bash scripts/build-testbed.sh`.", e);
    }
  }

  private void verify() {
    List<String> missing =
        new ArrayList<>(NAMES.stream().filter(name -> !Files.isExecutable(binary(name))).toList());
    if (!Files.isExecutable(gitea())) {
      missing.add("gitea");
    }
    if (!missing.isEmpty() || !Files.isRegularFile(kwokStages())) {
      throw new IllegalStateException(
          "The test bed is not built: missing "
              + (missing.isEmpty() ? List.of(kwokStages().getFileName().toString()) : missing)
              + " in "
              + dir
              + " or "
              + giteaDir
              + ". Run `bash scripts/build-testbed.sh` (it builds them from their Go modules) and try again.");
    }
  }
}
