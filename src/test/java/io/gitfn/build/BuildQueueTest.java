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
    return queue.admit(owner, owner + "/job", () -> woken.add(owner));
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

    queue.finished("a/job");

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
    queue.finished("a/job");

    assertThat(admit("e").started()).isFalse();
    assertThat(admit("c").started()).isTrue();
  }

  @Test
  void onlyABuildWithNoSlotYetWaits() {
    admit("a");
    admit("b");
    admit("c");

    assertThat(queue.waits("c", "c/job")).isTrue();
    assertThat(queue.waits("c", "c/other")).as("another build of c").isFalse();
    assertThat(queue.waits("a", "a/job")).as("running").isFalse();
    assertThat(queue.waits("d", "d/job")).as("never asked").isFalse();
    queue.finished("a/job");
    assertThat(queue.waits("c", "c/job")).as("a slot is handed to it").isFalse();
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
    queue.finished("a/job"); // reserved for c

    queue.withdraw("c");

    assertThat(woken).containsExactly("c", "d");
    assertThat(admit("d").started()).isTrue();
  }

  @Test
  void askingForAnotherJobReplacesTheOwnersEarlierRequest() {
    admit("a");
    admit("b");
    queue.admit("c", "c-old/job", () -> woken.add("c-old"));

    BuildQueue.Admission now = queue.admit("c", "c-new/job", () -> woken.add("c-new"));

    assertThat(now.started()).isFalse();
    assertThat(queue.depth()).isEqualTo(1);
    queue.finished("a/job");
    assertThat(woken).containsExactly("c-new");
  }

  @Test
  void jobsFoundRunningAfterARestartCountAgainstTheLimit() {
    queue.running("x", "x/job");
    queue.running("y", "y/job");

    assertThat(admit("a").started()).isFalse();
    queue.finished("x/job");
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

    queue.settle("a", java.util.Set.of("a/job"));

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
    queue.finished("nobody/job");
    assertThat(queue.runningCount()).isEqualTo(1);
  }

  @Test
  void oneNamespaceMayHoldAllButOneSlotSoAnotherNamespacesBuildStillStarts() {
    BuildQueue three = new BuildQueue(3);
    assertThat(three.admit("shop/a", "shop/a-build", () -> {}).started()).isTrue();
    assertThat(three.admit("shop/b", "shop/b-build", () -> {}).started()).isTrue();

    BuildQueue.Admission third = three.admit("shop/c", "shop/c-build", () -> woken.add("shop/c"));

    assertThat(third.started()).isFalse();
    assertThat(third.describe()).isEqualTo("waiting for a build slot: this namespace holds 2 of the 3, the most one"
        + " namespace may hold while others may need one");
    assertThat(three.admit("blog/a", "blog/a-build", () -> {}).started()).isTrue();
    assertThat(woken).isEmpty();
  }

  @Test
  void aFreedSlotGoesToTheWaitingNamespaceThatHoldsTheFewestThenByArrival() {
    BuildQueue three = new BuildQueue(3);
    three.admit("shop/a", "shop/a-build", () -> {});
    three.admit("shop/b", "shop/b-build", () -> {});
    three.admit("blog/a", "blog/a-build", () -> {});
    three.admit("shop/c", "shop/c-build", () -> woken.add("shop/c")); // first to wait, its namespace holds 2
    three.admit("blog/b", "blog/b-build", () -> woken.add("blog/b"));
    three.admit("wiki/a", "wiki/a-build", () -> woken.add("wiki/a")); // last to wait, its namespace holds none

    three.finished("shop/a-build");
    assertThat(woken).containsExactly("wiki/a");

    three.finished("blog/a-build");
    assertThat(woken).containsExactly("wiki/a", "blog/b");
  }

  @Test
  void withOneSlotTheOneNamespaceThatBuildsStillGetsIt() {
    BuildQueue one = new BuildQueue(1);

    assertThat(one.share()).isEqualTo(1);
    assertThat(one.admit("shop/a", "shop/a-build", () -> {}).started()).isTrue();
  }

  @Test
  void aBuildIsNamedNamespaceSlashJob() {
    assertThatThrownBy(() -> queue.admit("a", "a-build", () -> {})).hasMessageContaining("namespace/job");
  }

  @Test
  void theLimitIsAtLeastOne() {
    assertThatThrownBy(() -> new BuildQueue(0)).hasMessageContaining("at least 1");
  }
}
