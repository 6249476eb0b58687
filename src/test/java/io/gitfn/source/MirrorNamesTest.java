package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mirror's directory name, which log lines show, says nothing that lets anyone test a guessed password. */
class MirrorNamesTest {

  private static final RepositoryUrl URL = RepositoryUrl.parse("https://git.example.com/team/infra.git");
  private static final GitCredentials CREDENTIALS = new GitCredentials.Basic("deploy", "hunter2");

  @Test
  void theNameIsKeyedByASecretOfTheCacheAndStaysTheSameAcrossRestarts(@TempDir Path one, @TempDir Path two)
      throws Exception {
    Path first;
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(one))) {
      first = cache.mirror(URL, CREDENTIALS).directory().getFileName();
    }
    try (MirrorCache restarted = new MirrorCache(SourceSettings.defaults(one));
        MirrorCache elsewhere = new MirrorCache(SourceSettings.defaults(two))) {
      assertThat(restarted.mirror(URL, CREDENTIALS).directory().getFileName()).isEqualTo(first);
      assertThat(elsewhere.mirror(URL, CREDENTIALS).directory().getFileName())
          .as("the same URL and credentials under another cache's key").isNotEqualTo(first);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(one.resolve(MirrorCache.NAME_KEY))))
        .isEqualTo("rw-------");
  }
}
