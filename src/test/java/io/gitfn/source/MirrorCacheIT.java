package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** One mirror per URL and credentials, and a disk budget kept by evicting the least recently used. */
@ExtendWith(GitServers.class)
class MirrorCacheIT {

  @TempDir Path cacheDir;

  private static GitCredentials.Basic basic(GitHttpServer http) {
    return new GitCredentials.Basic(http.credentials().username(), http.credentials().password());
  }

  private static Revision pushed(GitClient git, String url, String content) throws Exception {
    WorkingCopy clone = git.clone(url);
    String commit = clone.write("a.txt", content).commit(content);
    clone.push();
    return new Revision("main", commit);
  }

  @Test
  void oneMirrorPerUrlAndCredentialsInADirectoryThatNamesNeither(GitHttpServer http, BareRepository repository) {
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      RepositoryUrl url = RepositoryUrl.parse(http.url(repository.name()));
      Mirror mirror = cache.mirror(url, basic(http));

      assertThat(cache.mirror(RepositoryUrl.parse(http.url(repository.name()) + "/"), basic(http)))
          .isSameAs(mirror);
      Mirror other = cache.mirror(url, new GitCredentials.Basic(http.credentials().username(), "other-token"));
      assertThat(other).isNotSameAs(mirror);
      assertThat(other.directory()).isNotEqualTo(mirror.directory());
      assertThat(mirror.directory().getParent()).isEqualTo(cacheDir);
      assertThat(mirror.directory().getFileName().toString())
          .matches("[0-9a-f]{32}")
          .doesNotContain(http.credentials().password());
    }
  }

  @Test
  void overBudgetTheLeastRecentlyUsedIdleMirrorGoesAndIsFetchedAgainWhenNeeded(
      GitHttpServer http, BareRepository first, BareRepository second, BareRepository third, GitClient git)
      throws Exception {
    Revision a = pushed(git, http.url(first.name()), "a\n");
    Revision b = pushed(git, http.url(second.name()), "b\n");
    Revision c = pushed(git, http.url(third.name()), "c\n");
    try (MirrorCache unlimited = new MirrorCache(SourceSettings.defaults(cacheDir))) {
      Mirror probe = unlimited.mirror(RepositoryUrl.parse(http.url(first.name())), basic(http));
      probe.ensure(List.of(a));
      long oneMirror = unlimited.diskUsage();
      probe.evictIfIdle();
      unlimited.close();

      // Room for two mirrors, not three.
      try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir).withDiskBudgetBytes(oneMirror * 5 / 2))) {
        Mirror mirrorA = cache.mirror(RepositoryUrl.parse(http.url(first.name())), basic(http));
        Mirror mirrorB = cache.mirror(RepositoryUrl.parse(http.url(second.name())), basic(http));
        Mirror mirrorC = cache.mirror(RepositoryUrl.parse(http.url(third.name())), basic(http));
        mirrorA.ensure(List.of(a));
        mirrorB.ensure(List.of(b));
        mirrorA.snapshot(a);
        mirrorC.ensure(List.of(c));

        assertThat(Files.exists(mirrorB.directory().resolve("repository.git"))).isFalse();
        assertThat(Files.exists(mirrorA.directory().resolve("repository.git"))).isTrue();
        assertThat(cache.diskUsage()).isLessThanOrEqualTo(oneMirror * 5 / 2);

        mirrorB.ensure(List.of(b));
        assertThat(mirrorB.fetchCount()).isEqualTo(2);
        assertThat(mirrorB.snapshot(b).read("a.txt")).isEqualTo("b\n".getBytes());
      }
    }
  }

  @Test
  void aMirrorInUseIsNeverEvicted(GitHttpServer http, BareRepository first, BareRepository second, GitClient git)
      throws Exception {
    Revision a = pushed(git, http.url(first.name()), "a\n");
    Revision b = pushed(git, http.url(second.name()), "b\n");
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir).withDiskBudgetBytes(1))) {
      Mirror mirrorA = cache.mirror(RepositoryUrl.parse(http.url(first.name())), basic(http));
      Mirror mirrorB = cache.mirror(RepositoryUrl.parse(http.url(second.name())), basic(http));
      mirrorA.ensure(List.of(a));
      CountDownLatch reading = new CountDownLatch(1);
      CountDownLatch done = new CountDownLatch(1);
      CompletableFuture<byte[]> slowRead = CompletableFuture.supplyAsync(() -> {
        try {
          return mirrorA.read(repository -> {
            reading.countDown();
            try {
              done.await();
            } catch (InterruptedException e) {
              throw new InterruptedIOException();
            }
            return repository.open(ObjectId.fromString(a.sha())).getBytes();
          });
        } catch (SourceException e) {
          throw new IllegalStateException(e);
        }
      });
      reading.await();

      mirrorB.ensure(List.of(b));
      done.countDown();

      assertThat(slowRead.get()).isNotEmpty();
      assertThat(Files.exists(mirrorA.directory().resolve("repository.git"))).isTrue();
    }
  }

  @Test
  void directoriesOfAnEarlierRunThatNobodyAsksForGoFirst(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    Revision a = pushed(git, http.url(repository.name()), "a\n");
    Path orphan = Files.createDirectories(cacheDir.resolve("0123456789abcdef0123456789abcdef"));
    Files.write(orphan.resolve("pack"), new byte[200_000]);
    try (MirrorCache cache = new MirrorCache(SourceSettings.defaults(cacheDir).withDiskBudgetBytes(100_000))) {
      cache.mirror(RepositoryUrl.parse(http.url(repository.name())), basic(http)).ensure(List.of(a));

      assertThat(orphan).doesNotExist();
      assertThat(cache.diskUsage()).isLessThan(100_000);
    }
  }
}
