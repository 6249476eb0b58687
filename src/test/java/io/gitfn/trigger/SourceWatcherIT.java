package io.gitfn.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gitfn.source.Backoff;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.SourceException;
import io.gitfn.source.SourceSettings;
import io.gitfn.testbed.git.BareRepository;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.GitHttpServer;
import io.gitfn.testbed.git.GitServers;
import io.gitfn.testbed.git.HostileGitServer;
import io.gitfn.testbed.git.WorkingCopy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The watcher against a real Git server: shared checks, schedules that change live, and failures that keep the last good revision. */
@ExtendWith(GitServers.class)
class SourceWatcherIT {

  private static final Duration HOUR = Duration.ofHours(1);
  // Controller.CHECK_THREADS: a slow server holds one until its deadline.
  private static final int CONTROLLER_CHECK_THREADS = 64;

  @TempDir Path cache;
  private MirrorCache mirrors;
  private final RecordingEvents events = new RecordingEvents();
  private SourceWatcher watcher;

  @BeforeEach
  void start() {
    mirrors = new MirrorCache(SourceSettings.defaults(cache));
    watcher = new SourceWatcher(mirrors, Clock.systemUTC(),
        new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5)), 2);
  }

  @AfterEach
  void stop() {
    watcher.close();
    mirrors.close();
  }

  @Test
  void manySourcesOnOneRepositoryShareOneCheck(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String first = copy.write("a.txt", "1").commit("one");
    copy.push();
    IntStream.range(0, 50).forEach(i -> watcher.track(source(http, repository, "s" + i, "main", HOUR), events));
    await().atMost(Duration.ofSeconds(10)).until(() -> IntStream.range(0, 50)
        .allMatch(i -> events.sha(id("s" + i)).equals(Optional.of(first))));
    Mirror mirror = mirrors.mirror(url(http, repository), credentials(http));
    int checksBefore = mirror.lsRemoteCount();

    String second = copy.write("a.txt", "2").commit("two");
    copy.push();
    IntStream.range(0, 50).parallel().forEach(i -> watcher.trigger(id("s" + i), "test"));

    await().atMost(Duration.ofSeconds(10)).until(() -> IntStream.range(0, 50)
        .allMatch(i -> events.sha(id("s" + i)).equals(Optional.of(second))));
    assertThat(mirror.lsRemoteCount() - checksBefore)
        .as("ls-remotes for 50 concurrent triggers: the running check and one coalesced after it")
        .isBetween(1, 2);
    assertThat(mirror.fetchCount()).as("one fetch per new commit").isEqualTo(2);
  }

  @Test
  void anIntervalChangeTakesEffectWithoutARestart(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("a.txt", "1").commit("one");
    copy.push();
    watcher.track(source(http, repository, "s", "main", HOUR), events);
    await().atMost(Duration.ofSeconds(10)).until(() -> events.revisions(id("s")) == 1);

    watcher.track(source(http, repository, "s", "main", Duration.ofMillis(500)), events);
    String second = copy.write("a.txt", "2").commit("two");
    copy.push();

    await().atMost(Duration.ofSeconds(5)).until(() -> events.sha(id("s")).equals(Optional.of(second)));
  }

  @Test
  void trackingAnUnchangedSourceAgainCostsNothing(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("a.txt", "1").commit("one");
    copy.push();
    watcher.track(source(http, repository, "s", "main", HOUR), events);
    await().atMost(Duration.ofSeconds(10)).until(() -> events.revisions(id("s")) == 1);
    Mirror mirror = mirrors.mirror(url(http, repository), credentials(http));
    int checks = mirror.lsRemoteCount();

    IntStream.range(0, 20).forEach(i -> watcher.track(source(http, repository, "s", "main", HOUR), events));
    // A track() that asks for a check asks before it returns. A check asked for after them, with a new commit to
    // find, tells whether any did: it would run after theirs (a second ls-remote) or with them (their cause too).
    String second = copy.write("a.txt", "2").commit("two");
    copy.push();
    watcher.trigger(id("s"), "probe");

    await().atMost(Duration.ofSeconds(10)).until(() -> events.sha(id("s")).equals(Optional.of(second)));
    assertThat(events.cause(id("s"))).as("what the check that found the new commit was for").contains("probe");
    assertThat(mirror.lsRemoteCount() - checks).as("ls-remotes since the source was first seen").isEqualTo(1);
  }

  @Test
  void aDeletedBranchKeepsTheLastGoodRevisionAndReportsTheLoss(
      GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("a.txt", "1").commit("one");
    copy.push("HEAD:refs/heads/release/1.0");
    watcher.track(source(http, repository, "s", "release/1.0", HOUR), events);
    await().atMost(Duration.ofSeconds(10)).until(() -> events.sha(id("s")).equals(Optional.of(commit)));

    copy.push(":refs/heads/release/1.0");
    watcher.trigger(id("s"), "test");

    await().atMost(Duration.ofSeconds(10)).until(() -> !events.failures(id("s")).isEmpty());
    assertThat(events.failures(id("s")).get(0).error().kind()).isEqualTo(SourceException.Kind.REF_NOT_FOUND);
    SourceState state = watcher.state(id("s"));
    assertThat(state.revision()).hasValueSatisfying(r -> assertThat(r.sha()).isEqualTo(commit));
    assertThat(state.error()).hasValueSatisfying(e -> assertThat(e).contains("release/1.0"));
  }

  @Test
  void aPinThatNoRefReachesFailsOnlyItsOwnSource(GitHttpServer http, BareRepository repository, GitClient git)
      throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String commit = copy.write("a.txt", "1").commit("one");
    copy.push();

    watcher.track(source(http, repository, "branch", "main", HOUR), events);
    watcher.track(new TrackedSource(id("pinned"), url(http, repository), credentials(http),
        new RefSelector.Commit("0123456789abcdef0123456789abcdef01234567"), HOUR, Optional.empty()), events);

    await().atMost(Duration.ofSeconds(10)).until(() -> !events.failures(id("pinned")).isEmpty()
        && events.sha(id("branch")).equals(Optional.of(commit)));
    assertThat(events.failures(id("pinned")).get(0).error().kind()).isEqualTo(SourceException.Kind.REF_NOT_FOUND);
    assertThat(events.failures(id("branch"))).isEmpty();
  }

  @Test
  void aMirrorNobodyTracksIsReleased(GitHttpServer http, BareRepository repository, GitClient git) throws Exception {
    WorkingCopy copy = git.clone(http.url(repository.name()));
    copy.write("a.txt", "1").commit("one");
    copy.push();
    watcher.track(source(http, repository, "s", "main", HOUR), events);
    await().atMost(Duration.ofSeconds(10)).until(() -> events.revisions(id("s")) == 1);
    Mirror before = mirrors.mirror(url(http, repository), credentials(http));

    watcher.untrack(id("s"));

    assertThat(mirrors.mirror(url(http, repository), credentials(http))).isNotSameAs(before);
  }

  @Test
  void failuresBackOffExponentially(GitHttpServer http, BareRepository repository) {
    TrackedSource wrong = new TrackedSource(id("s"), url(http, repository),
        new GitCredentials.Basic(http.credentials().username(), "wrong"), new RefSelector.Branch("main"),
        Duration.ofSeconds(30), Optional.empty());

    watcher.track(wrong, events);

    await().atMost(Duration.ofSeconds(10)).until(() -> events.failures(id("s")).size() >= 3);
    var failures = events.failures(id("s"));
    assertThat(failures.get(0).error().kind()).isEqualTo(SourceException.Kind.AUTHENTICATION);
    assertThat(failures.get(1).retryIn()).isGreaterThan(failures.get(0).retryIn());
    assertThat(failures.get(2).retryIn()).isGreaterThan(failures.get(1).retryIn());
    assertThat(failures.get(0).error().getMessage()).doesNotContain("wrong");
  }

  @Test
  void slowServersHoldTheirOwnChecksWhileOthersAreCheckedOnTime(GitHttpServer http, BareRepository repository,
      GitClient git) throws Exception {
    // As the controller runs it: many check threads, and a deadline of its own for each network call.
    watcher.close();
    mirrors.close();
    mirrors = new MirrorCache(SourceSettings.defaults(cache).withTimeout(Duration.ofSeconds(8)));
    watcher = new SourceWatcher(mirrors, Clock.systemUTC(), new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5)),
        CONTROLLER_CHECK_THREADS);
    WorkingCopy copy = git.clone(http.url(repository.name()));
    String healthy = copy.write("a.txt", "1").commit("one");
    copy.push();
    try (HostileGitServer slow = HostileGitServer.trickling(Duration.ofSeconds(2))) {
      for (int i = 0; i < 6; i++) {
        watcher.track(new TrackedSource(id("slow" + i), RepositoryUrl.parse(slow.url("slow" + i)),
            new GitCredentials.None(), new RefSelector.Branch("main"), HOUR, Optional.empty()), events);
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> slow.requests() == 6);

      watcher.track(source(http, repository, "healthy", "main", HOUR), events);

      await().atMost(Duration.ofSeconds(20)).until(() -> events.sha(id("healthy")).equals(Optional.of(healthy)));
      for (int i = 0; i < 6; i++) {
        assertThat(events.failures(id("slow" + i))).as("slow%d has not reached its 8 s deadline yet", i).isEmpty();
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> events.failures(id("slow0")).size() == 1);
      assertThat(events.failures(id("slow0")).get(0).error().kind()).isEqualTo(SourceException.Kind.TIMEOUT);
      assertThat(events.failures(id("slow0")).get(0).error().getMessage()).contains("did not finish within 8 s");
    }
  }

  private static SourceId id(String name) {
    return new SourceId("FunctionRepository", "test", name);
  }

  private static RepositoryUrl url(GitHttpServer http, BareRepository repository) {
    return RepositoryUrl.parse(http.url(repository.name()));
  }

  private static GitCredentials credentials(GitHttpServer http) {
    return new GitCredentials.Basic(http.credentials().username(), http.credentials().password());
  }

  private static TrackedSource source(
      GitHttpServer http, BareRepository repository, String name, String branch, Duration interval) {
    return new TrackedSource(id(name), url(http, repository), credentials(http), new RefSelector.Branch(branch),
        interval, Optional.empty());
  }
}
