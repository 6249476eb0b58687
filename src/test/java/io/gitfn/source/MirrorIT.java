package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.SourceException.Kind;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.GitSshServer;
import io.gitfn.testbed.git.HostileGitServer;
import io.gitfn.testbed.git.SshAccess;
import io.gitfn.testbed.git.WorkingCopy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every kind of ref, followed over the HTTP and the SSH test server, through one shared mirror. */
@ExtendWith(GitServers.class)
class MirrorIT {

  @TempDir Path cacheDir;

  private GitHttpServer http;
  private GitSshServer ssh;
  private SshAccess sshAccess;
  private MirrorCache cache;

  @BeforeEach
  void start(GitHttpServer http, GitSshServer ssh, SshAccess sshAccess) {
    this.http = http;
    this.ssh = ssh;
    this.sshAccess = sshAccess;
    this.cache = new MirrorCache(SourceSettings.defaults(cacheDir));
  }

  @AfterEach
  void stop() {
    cache.close();
  }

  private GitRemote.Access access(GitRemote remote, BareRepository repository) throws Exception {
    return remote.of(repository, http, ssh, sshAccess);
  }

  private Mirror mirror(GitRemote.Access access) {
    return cache.mirror(access.url(), access.credentials());
  }

  private static String text(Snapshot snapshot, String path) throws IOException {
    return new String(snapshot.read(path), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aBranchIsResolvedFetchedAndReadWithoutAWorkingTree(
      GitRemote remote, BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    String commit =
        clone.write("functions/hello/handler.js", "module.exports = 1;\n")
            .write("functions/hello/package.json", "{}\n")
            .write("README.md", "hi\n")
            .commit("Add hello");
    clone.push();
    Mirror mirror = mirror(access);

    Revision revision = mirror.resolve(new RefSelector.Branch("main"));
    mirror.ensure(List.of(revision));
    Snapshot snapshot = mirror.snapshot(revision);

    assertThat(revision.toString()).isEqualTo("main@sha1:" + commit);
    assertThat(snapshot.commit()).isEqualTo(commit);
    assertThat(snapshot.list("functions")).containsExactly("functions/hello/handler.js", "functions/hello/package.json");
    assertThat(snapshot.list("")).containsExactly(
        "README.md", "functions/hello/handler.js", "functions/hello/package.json");
    assertThat(snapshot.list("./functions/hello/"))
        .containsExactly("functions/hello/handler.js", "functions/hello/package.json");
    assertThat(text(snapshot, "functions/hello/handler.js")).isEqualTo("module.exports = 1;\n");
    assertThat(mirror.lsRemoteCount()).isEqualTo(1);
    assertThat(mirror.fetchCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aBranchWithSlashesInItsName(GitRemote remote, BareRepository repository, GitClient git)
      throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "main\n").commit("main");
    clone.push();
    clone.git("checkout", "--quiet", "-b", "release/2026-11");
    String commit = clone.write("a.txt", "release\n").commit("release");
    clone.push("HEAD:refs/heads/release/2026-11");
    Mirror mirror = mirror(access);

    Revision revision = mirror.resolve(new RefSelector.Branch("release/2026-11"));
    mirror.ensure(List.of(revision));

    assertThat(revision).isEqualTo(new Revision("release/2026-11", commit));
    assertThat(text(mirror.snapshot(revision), "a.txt")).isEqualTo("release\n");
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void lightweightAndAnnotatedTagsResolveToTheirCommit(
      GitRemote remote, BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    String first = clone.write("v.txt", "1\n").commit("one");
    clone.tag("light");
    String second = clone.write("v.txt", "2\n").commit("two");
    String tagObject = clone.annotatedTag("annotated", "Release");
    clone.push("HEAD", "refs/tags/light", "refs/tags/annotated");
    Mirror mirror = mirror(access);

    RemoteRefs refs = mirror.remoteRefs();
    Revision light = refs.resolve(new RefSelector.Tag("light"));
    Revision annotated = refs.resolve(new RefSelector.Tag("annotated"));
    mirror.ensure(List.of(light, annotated));

    assertThat(tagObject).isNotEqualTo(second);
    assertThat(refs.refs()).containsEntry("refs/tags/annotated", second);
    assertThat(light).isEqualTo(new Revision("light", first));
    assertThat(annotated).isEqualTo(new Revision("annotated", second));
    assertThat(text(mirror.snapshot(light), "v.txt")).isEqualTo("1\n");
    assertThat(text(mirror.snapshot(annotated), "v.txt")).isEqualTo("2\n");
    assertThat(mirror.fetchCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aSemverRangePicksTheHighestMatchingTag(GitRemote remote, BareRepository repository, GitClient git)
      throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("v.txt", "1.2.0\n").commit("1.2.0");
    clone.tag("v1.2.0");
    String v19 = clone.write("v.txt", "1.9.0\n").commit("1.9.0");
    clone.annotatedTag("v1.9.0", "1.9.0");
    clone.write("v.txt", "2.0.0-rc.1\n").commit("rc");
    clone.tag("v2.0.0-rc.1");
    String orders = clone.write("v.txt", "orders 1.4.0\n").commit("orders");
    clone.tag("orders/v1.4.0");
    clone.write("v.txt", "orders 2\n").commit("orders 2");
    clone.tag("orders/v2.0.0");
    clone.git("push", "--quiet", "origin", "HEAD", "--tags");
    Mirror mirror = mirror(access);

    Revision highest = mirror.resolve(new RefSelector.SemverRange(">=1.0.0 <3.0.0"));
    Revision prefixed = mirror.resolve(new RefSelector.SemverRange("^1", "orders/"));
    mirror.ensure(List.of(highest, prefixed));

    assertThat(highest).isEqualTo(new Revision("v1.9.0", v19));
    assertThat(prefixed).isEqualTo(new Revision("orders/v1.4.0", orders));
    assertThat(text(mirror.snapshot(highest), "v.txt")).isEqualTo("1.9.0\n");
    assertThatThrownBy(() -> mirror.resolve(new RefSelector.SemverRange("^5")))
        .isInstanceOfSatisfying(SourceException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REF_NOT_FOUND))
        .hasMessageContaining("'^5'")
        .hasMessageContaining("5 tags seen")
        .hasMessageContaining(access.url().fetchUrl());
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aPinnedCommitNeedsNoLsRemote(GitRemote remote, BareRepository repository, GitClient git)
      throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    String pinned = clone.write("a.txt", "pinned\n").commit("pinned");
    clone.write("a.txt", "later\n").commit("later");
    clone.push();
    Mirror mirror = mirror(access);

    Revision revision = mirror.resolve(RefSelector.fromKymaReference(pinned));
    mirror.ensure(List.of(revision));
    mirror.ensure(List.of(revision));

    assertThat(revision).isEqualTo(new Revision(pinned, pinned));
    assertThat(text(mirror.snapshot(revision), "a.txt")).isEqualTo("pinned\n");
    assertThat(mirror.lsRemoteCount()).isZero();
    assertThat(mirror.fetchCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aPinnedCommitThatWasNeverPushedIsNotFound(GitRemote remote, BareRepository repository, GitClient git)
      throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "1\n").commit("1");
    clone.push();
    String neverPushed = clone.write("a.txt", "local\n").commit("local only");
    Mirror mirror = mirror(access);

    assertThatThrownBy(() -> mirror.ensure(List.of(mirror.resolve(new RefSelector.Commit(neverPushed)))))
        .isInstanceOfSatisfying(SourceException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.REF_NOT_FOUND);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining(neverPushed)
        .hasMessageContaining("not on any branch, tag or pull request");
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aPinnedCommitOnlyAPullRequestRefHoldsIsFetchedFromThePullRequestRefs(GitRemote remote,
      BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "1\n").commit("1");
    clone.push();
    // A fork's pull request: its head is on no branch of the repository, only under the forge's refs/pull/.
    String forkHead = clone.write("a.txt", "from a fork\n").commit("from a fork");
    clone.push("HEAD:refs/pull/7/head");
    Mirror mirror = mirror(access);

    Revision revision = mirror.resolve(new RefSelector.Commit(forkHead));
    mirror.ensure(List.of(revision));

    assertThat(text(mirror.snapshot(revision), "a.txt")).isEqualTo("from a fork\n");
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aChecksAnswerHoldsBranchesAndTagsButNotAForgesPullRequestRefs(GitRemote remote, BareRepository repository,
      GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    String commit = clone.write("a.txt", "1\n").commit("1");
    clone.tag("v1.0.0");
    clone.push("main", "v1.0.0", "HEAD:refs/pull/1/head", "HEAD:refs/merge-requests/2/head");

    RemoteRefs refs = mirror(access).remoteRefs();

    assertThat(refs.refs()).containsOnlyKeys("refs/heads/main", "refs/tags/v1.0.0")
        .containsEntry("refs/heads/main", commit);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aFetchHappensOnlyWhenTheRefMoved(GitRemote remote, BareRepository repository, GitClient git)
      throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "1\n").commit("1");
    clone.push();
    Mirror mirror = mirror(access);
    RefSelector main = new RefSelector.Branch("main");

    mirror.ensure(List.of(mirror.resolve(main)));
    mirror.ensure(List.of(mirror.resolve(main)));
    assertThat(mirror.fetchCount()).isEqualTo(1);

    String moved = clone.write("a.txt", "2\n").commit("2");
    clone.push();
    Revision revision = mirror.resolve(main);
    mirror.ensure(List.of(revision));

    assertThat(revision.sha()).isEqualTo(moved);
    assertThat(mirror.fetchCount()).isEqualTo(2);
    assertThat(mirror.lsRemoteCount()).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aForcePushIsFollowed(GitRemote remote, BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "1\n").commit("1");
    String old = clone.write("a.txt", "2\n").commit("2");
    clone.push();
    Mirror mirror = mirror(access);
    mirror.ensure(List.of(mirror.resolve(new RefSelector.Branch("main"))));

    clone.git("reset", "--quiet", "--hard", "HEAD~1");
    String rewritten = clone.write("a.txt", "rewritten\n").commit("rewritten");
    clone.git("push", "--quiet", "--force", "origin", "HEAD");
    Revision revision = mirror.resolve(new RefSelector.Branch("main"));
    mirror.ensure(List.of(revision));

    assertThat(revision.sha()).isEqualTo(rewritten).isNotEqualTo(old);
    assertThat(text(mirror.snapshot(revision), "a.txt")).isEqualTo("rewritten\n");
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aDeletedBranchIsReportedAndItsLastCommitStaysReadable(
      GitRemote remote, BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "main\n").commit("main");
    clone.push();
    String last = clone.write("a.txt", "feature\n").commit("feature");
    clone.push("HEAD:refs/heads/feature/x");
    Mirror mirror = mirror(access);
    Revision good = mirror.resolve(new RefSelector.Branch("feature/x"));
    mirror.ensure(List.of(good));

    clone.push(":refs/heads/feature/x");

    assertThatThrownBy(() -> mirror.resolve(new RefSelector.Branch("feature/x")))
        .isInstanceOfSatisfying(SourceException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.REF_NOT_FOUND);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining("branch 'feature/x'")
        .hasMessageContaining(access.url().fetchUrl());
    assertThat(good.sha()).isEqualTo(last);
    assertThat(text(mirror.snapshot(good), "a.txt")).isEqualTo("feature\n");
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void aMissingRepositoryIsReportedAsSuch(GitRemote remote, BareRepository repository) throws Exception {
    GitRemote.Access real = access(remote, repository);
    RepositoryUrl missing = RepositoryUrl.parse(real.url().fetchUrl().replace(repository.name(), "no-such-repo"));
    Mirror mirror = cache.mirror(missing, real.credentials());

    assertThatThrownBy(mirror::remoteRefs)
        .isInstanceOfSatisfying(SourceException.class, e -> {
          ObservedFailures.log(e);
          assertThat(e.kind()).isEqualTo(Kind.REPOSITORY_NOT_FOUND);
          assertThat(e.recoverable()).isFalse();
        })
        .hasMessageContaining(missing.fetchUrl());
  }

  @ParameterizedTest
  @EnumSource(GitRemote.class)
  void concurrentChecksShareOneLsRemoteAndConcurrentEnsuresOneFetch(
      GitRemote remote, BareRepository repository, GitClient git) throws Exception {
    GitRemote.Access access = access(remote, repository);
    WorkingCopy clone = git.clone(access.cloneUrl());
    clone.write("a.txt", "1\n").commit("1");
    clone.push();
    Mirror mirror = mirror(access);
    int threads = 32;

    List<RemoteRefs> seen = Concurrently.run(threads, mirror::remoteRefs);
    assertThat(Set.copyOf(seen)).hasSizeLessThanOrEqualTo(mirror.lsRemoteCount());
    // Without sharing, each of the 32 calls runs its own ls-remote. Threads leaving the barrier on a loaded
    // 2-core machine arrive in a few waves, each sharing one ls-remote, so the bound leaves room for waves
    // (CI once saw 3) while staying far below one per call.
    assertThat(mirror.lsRemoteCount()).isLessThanOrEqualTo(threads / 4);

    Revision revision = seen.get(0).resolve(new RefSelector.Branch("main"));
    Concurrently.run(threads, () -> {
      mirror.ensure(List.of(revision));
      return mirror.snapshot(revision).commit();
    });
    assertThat(mirror.fetchCount()).isEqualTo(1);
  }

  @Test
  @Timeout(60) // guards the suite against a call that never returns; it measures nothing
  void aServerThatNeverFinishesAnsweringCostsOneDeadlineAndHoldsOffTheNextCall() throws Exception {
    try (HostileGitServer slow = HostileGitServer.trickling(Duration.ofSeconds(1));
        MirrorCache strict = new MirrorCache(SourceSettings.defaults(cacheDir.resolve("strict"))
            .withTimeout(Duration.ofSeconds(3)))) {
      Mirror mirror = strict.mirror(RepositoryUrl.parse(slow.url("endless")), new GitCredentials.None());

      assertThatThrownBy(mirror::remoteRefs).isInstanceOfSatisfying(SourceException.class, e -> {
        assertThat(e.kind()).isEqualTo(SourceException.Kind.TIMEOUT);
        assertThat(e.getMessage()).contains("did not finish within 3 s");
      });
      assertThatThrownBy(mirror::remoteRefs).isInstanceOfSatisfying(SourceException.class, e -> {
        assertThat(e.kind()).isEqualTo(SourceException.Kind.TIMEOUT);
        assertThat(e.getMessage()).contains("an earlier network call").contains("is still running");
      });
      assertThat(slow.requests()).as("the abandoned call holds its connection; no second one was made")
          .isEqualTo(1);
    }
  }

  @Test
  @Timeout(60) // guards the suite against a call that never returns; it measures nothing
  void aServerThatAdvertisesRefsWithoutEndIsCutOffAtTheCap() throws Exception {
    try (HostileGitServer flood = HostileGitServer.flooding()) {
      Mirror mirror = cache.mirror(RepositoryUrl.parse(flood.url("endless")), new GitCredentials.None());

      assertThatThrownBy(mirror::remoteRefs).isInstanceOfSatisfying(SourceException.class, e -> {
        assertThat(e.kind()).isEqualTo(SourceException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).contains("sent more than " + Mirror.MAX_ADVERTISEMENT_BYTES + " bytes");
      });
    }
  }

  @Test
  @Timeout(60) // guards the suite against a call that never returns; it measures nothing
  void anSshServerThatAdvertisesRefsWithoutEndIsCutOffAtTheCapToo() throws Exception {
    try (GitSshServer flood = GitSshServer.flooding(cacheDir.resolve("flooding-ssh"))) {
      flood.authorize(sshAccess.key().publicKey());
      Mirror mirror = cache.mirror(RepositoryUrl.parse(flood.url("endless")), new GitCredentials.SshKey(
          Files.readString(sshAccess.key().privateKeyFile()), null, flood.knownHostsLine()));

      assertThatThrownBy(mirror::remoteRefs).isInstanceOfSatisfying(SourceException.class, e -> {
        assertThat(e.kind()).isEqualTo(SourceException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).contains("127.0.0.1 sent more than " + Mirror.MAX_ADVERTISEMENT_BYTES
            + " bytes in one answer to `git-upload-pack");
      });
    }
  }
}
