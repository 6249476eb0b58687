package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.GitHosts;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.Backoff;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.SourceWatcher;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spec only a person can fix stalls before the watcher tracks anything, naming the field at fault. Reading the
 * spec's Secrets, and a restarted controller stopping until Git first answers, are FunctionRepositoryIT's,
 * SecretReadOutageIT's and ControllerRestartIT's.
 */
class SourceStepTest {

  @TempDir Path directory;

  private MirrorCache mirrors;
  private SourceWatcher watcher;
  private SourceStep step;

  @BeforeEach
  void bind() {
    mirrors = new MirrorCache(SourceSettings.defaults(directory));
    watcher = new SourceWatcher(mirrors, Clock.fixed(NOW, ZoneOffset.UTC), Backoff.DEFAULT, 1);
    ControllerSettings settings = ControllerSettings.defaults()
        .withGitHosts(new GitHosts(List.of("git.example.com")));
    step = new SourceStep(new SourceBinding(null, watcher, settings, Clock.fixed(NOW, ZoneOffset.UTC), id -> { }));
  }

  @AfterEach
  void close() {
    watcher.close();
    mirrors.close();
  }

  @Test
  void aUrlOnAHostTheControllerMayNotFetchFromStallsNamingTheFieldAndTheAllowedHosts() {
    RepositoryState state = TestRepository.infra().url("https://git.evil.example.org/shop/infra.git")
        .pass(TestRepository.notFetchedYet());

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidURL");
      assertThat(stalled).hasMessage("spec.url: host git.evil.example.org is not one this controller may fetch from"
          + " (--allowed-git-host: git.example.com)");
    });
  }

  @Test
  void aUrlThatIsNoGitUrlStallsNamingTheField() {
    RepositoryState state = TestRepository.infra().url("git.example.com shop infra")
        .pass(TestRepository.notFetchedYet());

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidURL");
      assertThat(stalled.getMessage()).startsWith("spec.url: repository URL git.example.com shop infra is not a URL");
    });
  }

  @Test
  void aSpecWithoutARefStallsSayingWhichRefsThereAre() {
    TestRepository infra = TestRepository.infra();
    infra.build().getSpec().setRef(null);
    RepositoryState state = infra.pass(TestRepository.notFetchedYet());

    assertThatThrownBy(() -> step.run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidSpec");
      assertThat(stalled).hasMessage("spec.ref: no ref given: set one of branch, tag, semver or commit");
    });
  }
}
