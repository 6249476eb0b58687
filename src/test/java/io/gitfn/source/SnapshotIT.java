package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.SourceException.Kind;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Reading files at a commit, the tree id of a folder, and the size limits. */
@ExtendWith(GitServers.class)
class SnapshotIT {

  @TempDir Path cacheDir;

  private static Mirror mirror(MirrorCache cache, GitHttpServer http, BareRepository repository) {
    return cache.mirror(
        RepositoryUrl.parse(http.url(repository.name())),
        new GitCredentials.Basic(http.credentials().username(), http.credentials().password()));
  }

  private static Snapshot at(Mirror mirror, String branch) throws SourceException {
    Revision revision = mirror.resolve(new RefSelector.Branch(branch));
    mirror.ensure(List.of(revision));
    return mirror.snapshot(revision);
  }

  @Test
  void theTreeIdOfAFolderChangesOnlyWhenSomethingUnderItChanges(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("functions/orders/handler.js", "v1\n")
        .write("functions/payments/handler.py", "v1\n")
        .commit("two functions");
    clone.push();
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      Mirror mirror = mirror(cache, http, repository);
      Snapshot before = at(mirror, "main");

      clone.write("functions/payments/handler.py", "v2\n").commit("change payments only");
      clone.push();
      Snapshot after = at(mirror, "main");

      assertThat(after.commit()).isNotEqualTo(before.commit());
      assertThat(after.treeId("functions/orders")).isEqualTo(before.treeId("functions/orders")).isPresent();
      assertThat(after.treeId("functions/payments")).isNotEqualTo(before.treeId("functions/payments"));
      assertThat(after.treeId("")).isNotEqualTo(before.treeId("."));
      assertThat(before.treeId("functions/orders").orElseThrow())
          .isEqualTo(clone.git("rev-parse", before.commit() + ":functions/orders").strip());
      assertThat(after.treeId("functions/nothing-here")).isEmpty();
      assertThat(after.treeId("functions/orders/handler.js")).isEmpty();
    }
  }

  @Test
  void missingPathsAndFoldersReadAsFilesAreNamed(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("functions/orders/handler.js", "v1\n").commit("one");
    clone.push();
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      Snapshot snapshot = at(mirror(cache, http, repository), "main");

      assertThatThrownBy(() -> snapshot.read("functions/orders/config.yaml"))
          .cause()
          .isInstanceOfSatisfying(SourceException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PATH_NOT_FOUND))
          .hasMessageContaining("'functions/orders/config.yaml'")
          .hasMessageContaining(snapshot.revision().toString());
      assertThatThrownBy(() -> snapshot.read("functions/orders"))
          .hasMessageContaining("is a folder");
      assertThatThrownBy(() -> snapshot.list("nowhere"))
          .cause()
          .isInstanceOfSatisfying(SourceException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PATH_NOT_FOUND))
          .hasMessageContaining("'nowhere'");
      assertThatThrownBy(() -> snapshot.read("../etc/passwd")).hasMessageContaining("leaves the repository");
    }
  }

  @Test
  void symlinksAreListedAndTheirTargetsTold(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("functions/shared/handler.js", "v1\n");
    Files.createDirectories(clone.directory().resolve("functions/copy"));
    Files.createSymbolicLink(clone.directory().resolve("functions/copy/handler.js"), Path.of("../shared/handler.js"));
    Files.createSymbolicLink(clone.directory().resolve("functions/passwd"), Path.of("/etc/passwd"));
    clone.commit("links");
    clone.push();
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      Snapshot snapshot = at(mirror(cache, http, repository), "main");

      assertThat(snapshot.list("functions"))
          .containsExactly("functions/copy/handler.js", "functions/passwd", "functions/shared/handler.js");
      assertThat(snapshot.symlinkTarget("functions/copy/handler.js")).contains("../shared/handler.js");
      assertThat(snapshot.symlinkTarget("functions/passwd")).contains("/etc/passwd");
      assertThat(snapshot.symlinkTarget("functions/shared/handler.js")).isEmpty();
    }
  }

  @Test
  void aFileOverTheLimitIsNotRead(GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    clone.write("small.txt", "x".repeat(1000)).write("big.txt", "x".repeat(5000)).commit("files");
    clone.push();
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir).withMaxFileBytes(4096))) {
      Snapshot snapshot = at(mirror(cache, http, repository), "main");

      assertThat(snapshot.read("small.txt")).hasSize(1000);
      assertThatThrownBy(() -> snapshot.read("big.txt"))
          .cause()
          .isInstanceOfSatisfying(SourceException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE))
          .hasMessageContaining("'big.txt'")
          .hasMessageContaining("5000 bytes")
          .hasMessageContaining("4096");
    }
  }

  @Test
  void aRepositoryOverTheLimitFailsAndItsMirrorIsDeleted(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy clone = git.clone(http.url(repository.name()));
    Random random = new Random(42);
    for (int i = 0; i < 20; i++) {
      byte[] noise = new byte[100_000];
      random.nextBytes(noise);
      clone.write("blob-" + i + ".txt", Base64.getEncoder().encodeToString(noise));
    }
    clone.commit("about 2 MB that does not compress");
    clone.push();
    try (MirrorCache cache =
        new MirrorCache(SourceSettings.defaults(cacheDir).withMaxRepositoryBytes(256 * 1024))) {
      Mirror mirror = mirror(cache, http, repository);
      Revision revision = mirror.resolve(new RefSelector.Branch("main"));

      assertThatThrownBy(() -> mirror.ensure(List.of(revision)))
          .isInstanceOfSatisfying(SourceException.class, e -> {
            ObservedFailures.log(e);
            assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE);
            assertThat(e.recoverable()).isFalse();
          })
          .hasMessageContaining(http.url(repository.name()))
          .hasMessageContaining("262144 bytes");
      assertThat(Files.exists(mirror.directory().resolve("repository.git"))).isFalse();
    }
  }
}
