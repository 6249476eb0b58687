package io.gitfn.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.dashboard.Timeline.Band;
import io.gitfn.dashboard.Timeline.Event;
import io.gitfn.dashboard.Timeline.Mark;
import io.gitfn.dashboard.Timeline.Origin;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which version served when: bands from the history, marks for what served nothing. */
class TimelineTest {

  private static final String A = "a".repeat(64);
  private static final String B = "b".repeat(64);
  private static final String C = "c".repeat(64);

  @Test
  void eachVersionServesFromItsRolloutUntilTheNextAndTheNewestRunsToTheEdge() {
    Timeline timeline = Timeline.of(newestFirst(
        entry(A, "main@sha1:1", "Succeeded", "10:00:00", "10:01:00"),
        entry(B, "main@sha1:2", "Succeeded", "10:09:00", "10:10:00")), null);

    assertThat(timeline.from()).isEqualTo("2026-11-26T10:00:00Z");
    assertThat(timeline.to()).isEqualTo("2026-11-26T10:10:00Z");
    assertThat(timeline.bands()).extracting(Band::key, Band::x, Band::width, Band::until, Band::origin)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(A, 90.0, 810.0, "2026-11-26T10:10:00Z", Origin.NEW),
            org.assertj.core.groups.Tuple.tuple(B, 900.0, 100.0, null, Origin.NEW));
    assertThat(timeline.marks()).isEmpty();
  }

  @Test
  void aRevertComesBackInTheSameColourWithNothingBuilt() {
    Timeline timeline = Timeline.of(newestFirst(
        entry(A, "main@sha1:1", "Succeeded", "10:00:00", "10:01:00"),
        entry(B, "main@sha1:2", "Succeeded", "10:02:00", "10:03:00"),
        entry(A, "main@sha1:3", "Reused", "10:04:00", "10:04:10")), null);

    List<Band> bands = timeline.bands();
    assertThat(bands).extracting(Band::origin).containsExactly(Origin.NEW, Origin.NEW, Origin.BACK);
    assertThat(bands.get(2).colour()).isEqualTo(bands.get(0).colour());
    assertThat(bands.get(1).colour()).as("another key, another colour").isNotEqualTo(bands.get(0).colour());
    assertThat(bands.get(2).css()).endsWith(" back");
  }

  @Test
  void anAutomaticRollbackIsMarkedAndItsRestoredKeyStandsOut() {
    AutoRollback rollback = new AutoRollback();
    rollback.setFailedContentKey(C);
    rollback.setRestoredContentKey(A);
    rollback.setReason("CrashLooping");
    rollback.setTime("2026-11-26T10:06:00Z");
    Timeline timeline = Timeline.of(newestFirst(
        entry(A, "main@sha1:1", "Succeeded", "10:00:00", "10:01:00"),
        entry(B, "main@sha1:2", "Failed", "10:02:00", null),
        entry(C, "main@sha1:3", "Succeeded", "10:04:00", null),
        entry(A, "main@sha1:1", "Reused", "10:06:00", "10:06:05")), rollback);

    assertThat(timeline.bands()).extracting(Band::key, Band::origin)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(A, Origin.NEW),
            org.assertj.core.groups.Tuple.tuple(A, Origin.ROLLED_BACK));
    assertThat(timeline.marks()).extracting(Mark::event, Mark::detail).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Event.BUILD_FAILED, B),
        org.assertj.core.groups.Tuple.tuple(Event.NOT_ROLLED_OUT, C),
        org.assertj.core.groups.Tuple.tuple(Event.ROLLED_BACK, C + " CrashLooping"));
  }

  @Test
  void theNewestVersionStillRollingOutIsNotMarkedAndNothingDatedDrawsNothing() {
    assertThat(Timeline.of(newestFirst(
        entry(A, "main@sha1:1", "Succeeded", "10:00:00", "10:01:00"),
        entry(B, "main@sha1:2", "Succeeded", "10:02:00", null)), null).marks()).isEmpty();
    assertThat(Timeline.of(List.of(), null).isEmpty()).isTrue();
    FunctionHistoryEntry garbled = entry(A, "main@sha1:1", "Succeeded", "10:00:00", null);
    garbled.setTime("yesterday");
    assertThat(Timeline.of(List.of(garbled), null).isEmpty()).as("a time that is no time").isTrue();
  }

  @Test
  void oneMomentAloneIsDrawnAtTheStart() {
    Timeline timeline = Timeline.of(List.of(entry(A, "inline", "Succeeded", "10:00:00", "10:00:00")), null);

    assertThat(timeline.bands()).singleElement().satisfies(b -> {
      assertThat(b.x()).isZero();
      assertThat(b.width()).isEqualTo(Timeline.WIDTH);
      assertThat(b.labelled()).isTrue();
      assertThat(b.shortKey()).isEqualTo("aaaaaaa");
    });
  }

  private static List<FunctionHistoryEntry> newestFirst(FunctionHistoryEntry... oldestFirst) {
    List<FunctionHistoryEntry> history = new ArrayList<>(List.of(oldestFirst));
    java.util.Collections.reverse(history);
    return history;
  }

  private static FunctionHistoryEntry entry(String key, String revision, String outcome, String time,
      String rolledOut) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setContentKey(key);
    entry.setRevision(revision);
    entry.setOutcome(outcome);
    entry.setTime("2026-11-26T" + time + "Z");
    entry.setRolledOut(rolledOut == null ? null : "2026-11-26T" + rolledOut + "Z");
    return entry;
  }
}
