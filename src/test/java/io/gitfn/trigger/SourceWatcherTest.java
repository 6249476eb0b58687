package io.gitfn.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.source.RefSelector;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SourceWatcherTest {

  @Test
  void aPushMovesABranchSourceOnlyForThatBranch() {
    RefSelector release = new RefSelector.Branch("release/1.0");
    assertThat(SourceWatcher.tracks(release, "refs/heads/release/1.0")).isTrue();
    assertThat(SourceWatcher.tracks(release, "refs/heads/release/1.0-rc")).isFalse();
    assertThat(SourceWatcher.tracks(release, "refs/tags/release/1.0")).isFalse();
  }

  @Test
  void aTagPushMovesTagAndSemverSourcesWithTheirPrefix() {
    assertThat(SourceWatcher.tracks(new RefSelector.Tag("v1.2.0"), "refs/tags/v1.2.0")).isTrue();
    assertThat(SourceWatcher.tracks(new RefSelector.SemverRange("^1", null), "refs/tags/v1.3.0")).isTrue();
    assertThat(SourceWatcher.tracks(new RefSelector.SemverRange("^1", "orders/"), "refs/tags/orders/v1.3.0")).isTrue();
    assertThat(SourceWatcher.tracks(new RefSelector.SemverRange("^1", "orders/"), "refs/tags/billing/v1.3.0")).isFalse();
  }

  @Test
  void aKymaReferenceMovesOnBranchOrTagAndAPinnedCommitNever() {
    assertThat(SourceWatcher.tracks(new RefSelector.BranchOrTag("main"), "refs/heads/main")).isTrue();
    assertThat(SourceWatcher.tracks(new RefSelector.BranchOrTag("v1"), "refs/tags/v1")).isTrue();
    assertThat(SourceWatcher.tracks(new RefSelector.Commit("a".repeat(40)), "refs/heads/main")).isFalse();
  }

  @Test
  void scheduledChecksLandWithinTenPercentOfTheInterval() {
    Duration interval = Duration.ofMinutes(1);
    IntStream.range(0, 1000).mapToObj(i -> MirrorChecks.jittered(interval)).forEach(d ->
        assertThat(d).isBetween(Duration.ofSeconds(54), Duration.ofSeconds(66)));
    assertThat(IntStream.range(0, 100).mapToObj(i -> MirrorChecks.jittered(interval)).distinct().count())
        .as("jitter varies").isGreaterThan(50);
  }
}
