package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildQueueTest {

  private final List<String> woken = new ArrayList<>();
  private final BuildQueue queue = new BuildQueue(2);

  private BuildQueue.Admission admit(String owner) {
    return queue.admit(owner, "job-" + owner, () -> woken.add(owner));
  }

  @Test
  void buildsStartAtOnceUpToTheLimit() {
    assertThat(admit("a").started()).isTrue();
    assertThat(admit("b").started()).isTrue();
    assertThat(queue.runningCount()).isEqualTo(2);
    assertThat(queue.depth()).isZero();
  }

  @Test
  void aBuildOverTheLimitWaitsAndSaysHowManyAreAhead() {
    admit("a");
    admit("b");

    BuildQueue.Admission c = admit("c");
    BuildQueue.Admission d = admit("d");

    assertThat(c.started()).isFalse();
    assertThat(c.ahead()).isZero();
    assertThat(d.ahead()).isEqualTo(1);
    assertThat(d.describe()).isEqualTo("waiting for a build slot: 2 of 2 are taken, 1 build is ahead in the queue");
    assertThat(queue.depth()).isEqualTo(2);
    assertThat(woken).isEmpty();
  }

  @Test
  void aFinishedBuildHandsItsSlotToTheFirstWaiterAndWakesIt() {
    admit("a");
    admit("b");
    admit("c");
    admit("d");

    queue.finished("job-a");

    assertThat(woken).containsExactly("c");
    assertThat(admit("c").started()).isTrue();
    assertThat(queue.runningCount()).isEqualTo(2);
    assertThat(queue.depth()).isEqualTo(1);
  }

  @Test
  void aNewcomerCannotTakeASlotReservedForAWaiter() {
    admit("a");
    admit("b");
    admit("c");
    queue.finished("job-a");

    assertThat(admit("e").started()).isFalse();
    assertThat(admit("c").started()).isTrue();
  }

  @Test
  void askingAgainWhileWaitingKeepsThePlace() {
    admit("a");
    admit("b");
    admit("c");
    admit("d");

    assertThat(admit("c").ahead()).isZero();
    assertThat(admit("d").ahead()).isEqualTo(1);
  }

  @Test
  void aWaiterThatMovesOnToAnotherBuildGivesUpItsReservedSlot() {
    admit("a");
    admit("b");
    admit("c");
    admit("d");
    queue.finished("job-a"); // reserved for c

    queue.withdraw("c");

    assertThat(woken).containsExactly("c", "d");
    assertThat(admit("d").started()).isTrue();
  }

  @Test
  void askingForAnotherJobReplacesTheOwnersEarlierRequest() {
    admit("a");
    admit("b");
    queue.admit("c", "job-c-old", () -> woken.add("c-old"));

    BuildQueue.Admission now = queue.admit("c", "job-c-new", () -> woken.add("c-new"));

    assertThat(now.started()).isFalse();
    assertThat(queue.depth()).isEqualTo(1);
    queue.finished("job-a");
    assertThat(woken).containsExactly("c-new");
  }

  @Test
  void jobsFoundRunningAfterARestartCountAgainstTheLimit() {
    queue.running("x", "job-x");
    queue.running("y", "job-y");

    assertThat(admit("a").started()).isFalse();
    queue.finished("job-x");
    assertThat(woken).containsExactly("a");
  }

  @Test
  void settlingFreesTheSlotsOfAnOwnersBuildsThatNoLongerRun() {
    admit("a");
    admit("b");
    admit("c");

    queue.settle("a", java.util.Set.of()); // its Job was never created, or was deleted by hand

    assertThat(woken).containsExactly("c");
    assertThat(admit("c").started()).isTrue();
  }

  @Test
  void settlingKeepsTheBuildsThatStillRun() {
    admit("a");
    admit("b");
    admit("c");

    queue.settle("a", java.util.Set.of("job-a"));

    assertThat(woken).isEmpty();
  }

  @Test
  void forgettingAnOwnerFreesItsSlotsAndItsPlace() {
    admit("a");
    admit("b");
    admit("c");
    admit("d");

    queue.forget("a");
    queue.forget("c");

    assertThat(woken).containsExactly("c", "d");
    assertThat(admit("d").started()).isTrue();
    assertThat(queue.runningCount()).isEqualTo(2);
  }

  @Test
  void finishingAnUnknownJobChangesNothing() {
    admit("a");
    queue.finished("job-nobody");
    assertThat(queue.runningCount()).isEqualTo(1);
  }

  @Test
  void theLimitIsAtLeastOne() {
    assertThatThrownBy(() -> new BuildQueue(0)).hasMessageContaining("at least 1");
  }
}
