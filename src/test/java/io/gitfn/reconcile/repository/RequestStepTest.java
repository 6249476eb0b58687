package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gitfn.MutableClock;
import io.gitfn.api.Annotations;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.source.Backoff;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceWatcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manual request ({@code gitfn.io/requested-at}) counts as handled only in a pass that saw a check of Git that
 * started after it, so that {@code status.lastHandledRequestedAt} means "Git was checked and its answer applied".
 *
 * <p>The watcher is the controller's own, over a temporary mirror cache; the source is a local repository reached
 * through a {@code file://} URL, so no Git server and no API server take part.
 */
class RequestStepTest {

  private static final Instant REQUESTED = NOW.plusSeconds(30);
  private static final String REQUEST = REQUESTED.toString();

  @TempDir Path directory;

  private SourceWatcher watcher;
  private MirrorCache mirrors;

  @AfterEach
  void closeWatcher() {
    if (watcher != null) {
      watcher.close();
    }
    if (mirrors != null) {
      mirrors.close();
    }
  }

  @Test
  void withoutARequestThePassGoesOnAndRecordsNone() {
    SourceBinding sources = binding(Clock.fixed(NOW, ZoneOffset.UTC), Clock.fixed(NOW, ZoneOffset.UTC));
    RepositoryState state = TestRepository.infra().pass(TestRepository.fetched(TestRepository.REVISION));

    Result result = new RequestStep(sources).run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getLastHandledRequestedAt()).isNull();
  }

  @Test
  void aRequestAlreadyHandledIsNotPassedOnAgain() {
    SourceBinding sources = binding(Clock.fixed(NOW, ZoneOffset.UTC), Clock.fixed(NOW, ZoneOffset.UTC));
    FunctionRepositoryStatus handled = new FunctionRepositoryStatus();
    handled.setLastHandledRequestedAt(REQUEST);
    RepositoryState state = TestRepository.infra().annotated(Annotations.REQUESTED_AT, REQUEST).status(handled)
        .pass(TestRepository.fetched(TestRepository.REVISION));

    // The source is not tracked: passing the request on to the watcher would throw, as it knows no such source.
    Result result = new RequestStep(sources).run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.status().getLastHandledRequestedAt()).isEqualTo(REQUEST);
  }

  @Test
  void aCheckThatStartedBeforeTheRequestDoesNotAnswerItAndThePassWaitsForTheCheck() throws Exception {
    Path work = repository("first");
    // Every check of this watcher starts at NOW, before the request: what a check already running when the
    // request came would report.
    SourceBinding sources = binding(Clock.fixed(NOW, ZoneOffset.UTC), Clock.fixed(REQUESTED, ZoneOffset.UTC));
    TestRepository infra = TestRepository.infra().url("file://" + work).annotated(Annotations.REQUESTED_AT, REQUEST);
    RepositoryState state = trackedPass(infra, sources);

    Result result = new RequestStep(sources).run(state);

    assertThat(result).as("nothing is applied before Git answers the request")
        .isEqualTo(Result.stopFor(Requeue.REQUEST_PENDING));
    assertThat(state.status().getLastHandledRequestedAt()).isNull();
    assertThat(new RequestStep(sources).run(state)).as("asked again, it is still not answered")
        .isEqualTo(Result.stopFor(Requeue.REQUEST_PENDING));
  }

  @Test
  void aRequestIsHandledOnceACheckThatStartedAfterItAnsweredAndTheStatusShowsWhatThatCheckFound() throws Exception {
    Path work = repository("first");
    MutableClock clock = new MutableClock(NOW);
    SourceBinding sources = binding(clock, clock);
    TestRepository infra = TestRepository.infra().url("file://" + work).annotated(Annotations.REQUESTED_AT, REQUEST);
    RepositoryState state = trackedPass(infra, sources);
    String pushed = commit(work, "second");
    clock.advance(Duration.between(NOW, REQUESTED));
    RequestStep step = new RequestStep(sources);

    await().atMost(Duration.ofSeconds(30)).until(() -> step.run(state).equals(Result.next()));

    assertThat(state.status().getLastHandledRequestedAt()).isEqualTo(REQUEST);
    Revision answer = new Revision("main", pushed);
    assertThat(state.source().revision()).as("what the check that answered found is what applies").contains(answer);
    assertThat(state.status().getLastFetchedRevision()).isEqualTo(answer.toString());
    assertThat(state.source().checkedAt()).hasValueSatisfying(at -> assertThat(at).isAfterOrEqualTo(REQUESTED));
  }

  /**
   * A binding whose watcher checks Git by {@code watcherClock} and whose requests are dated by {@code clock}; no
   * client, since no Secret is read.
   */
  private SourceBinding binding(Clock watcherClock, Clock clock) {
    mirrors = new MirrorCache(SourceSettings.defaults(directory.resolve("mirrors")));
    watcher = new SourceWatcher(mirrors, watcherClock, Backoff.DEFAULT, 2);
    return new SourceBinding(null, watcher, ControllerSettings.defaults(), clock, id -> { });
  }

  /** A pass after the source step tracked the repository's source and the watcher's first check answered. */
  private static RepositoryState trackedPass(TestRepository infra, SourceBinding sources) throws Exception {
    SourceId id = RepositoryState.idOf(infra.build());
    new SourceStep(sources).run(infra.pass(TestRepository.notFetchedYet()));
    await().atMost(Duration.ofSeconds(30)).until(() -> sources.state(id).revision().isPresent());
    RepositoryState state = infra.pass(sources.state(id));
    new SourceStep(sources).run(state);
    return state;
  }

  /** A local repository on branch main with one commit. */
  private Path repository(String message) throws Exception {
    Path work = directory.resolve("infra");
    Git.init().setDirectory(work.toFile()).setInitialBranch("main").call().close();
    commit(work, message);
    return work;
  }

  private static String commit(Path work, String message) throws Exception {
    Files.writeString(work.resolve("README.md"), message + "\n");
    PersonIdent author = new PersonIdent("gitfn test", "test@gitfn.invalid");
    try (Git git = Git.open(work.toFile())) {
      git.add().addFilepattern("README.md").call();
      return git.commit().setMessage(message).setAuthor(author).setCommitter(author).setSign(false).call().getName();
    }
  }
}
