package io.gitfn.reconcile.sync;

import static io.gitfn.api.function.TestFunction.declared;
import static io.gitfn.reconcile.sync.AppliedFunctionTest.asStored;
import static io.gitfn.reconcile.sync.AppliedFunctionTest.spec;
import static io.gitfn.source.TestRevision.revision;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncPlannerTest {

  private static final String OWNER = "ns.infra";

  @Test
  void aNewFunctionIsCreatedAnUnchangedOneLeftAloneAChangedOneUpdated() {
    GenericKubernetesResource same = asStored(applied("same", 1, "v1"));
    GenericKubernetesResource changed = asStored(applied("changed", 1, "v1"));

    SyncPlan plan = SyncPlanner.plan(
        List.of(applied("new", 2, "v1"), applied("same", 2, "v1"), applied("changed", 2, "v2")),
        List.of(same, changed), OWNER, true);

    assertThat(keys(plan.creates())).containsExactly("ns/new");
    assertThat(keys(plan.updates())).containsExactly("ns/changed");
    assertThat(plan.unchanged()).extracting(FunctionKey::toString).containsExactly("ns/same");
    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.writes()).isEqualTo(2);
  }

  @Test
  void aSecondPlanAtTheSameRevisionWritesNothing() {
    List<AppliedFunction> desired = List.of(applied("a", 1, "v1"), applied("b", 1, "v1"));

    SyncPlan plan = SyncPlanner.plan(desired, desired.stream().map(AppliedFunctionTest::asStored).toList(), OWNER, true);

    assertThat(plan.writes()).isZero();
    assertThat(plan.unchanged()).hasSize(2);
  }

  @Test
  void driftIsAnUpdateEvenAtTheSameRevision() {
    AppliedFunction desired = applied("a", 1, "v1");
    GenericKubernetesResource live = asStored(desired);
    spec(live).put("runtime", "nodejs20");

    assertThat(keys(SyncPlanner.plan(List.of(desired), List.of(live), OWNER, true).updates())).containsExactly("ns/a");
  }

  @Test
  void aHandMadeFunctionOfTheSameNameIsTakenOver() {
    GenericKubernetesResource handMade = asStored(applied("a", 1, "v1"));
    handMade.getMetadata().setLabels(Map.of());

    SyncPlan plan = SyncPlanner.plan(List.of(applied("a", 1, "v1")), List.of(handMade), OWNER, true);

    assertThat(keys(plan.updates())).containsExactly("ns/a");
  }

  @Test
  void aFunctionAnotherRepositoryManagesIsAConflictNotATakeOver() {
    GenericKubernetesResource theirs =
        asStored(AppliedFunction.of(declared("a").build(), "ns", "ns.other", revision(1)));

    SyncPlan plan = SyncPlanner.plan(List.of(applied("a", 1, "v1"), applied("b", 1, "v1")), List.of(theirs), OWNER, true);

    assertThat(plan.conflicts()).containsExactly(
        "Function ns/a is managed by repository ns.other (label gitfn.io/repository); "
            + "remove it from one of the two repositories");
    assertThat(plan.updates()).isEmpty();
  }

  @Test
  void pruneDeletesOnlyThisRepositorysFunctionsThatLeftGit() {
    GenericKubernetesResource gone = asStored(applied("gone", 1, "v1"));
    GenericKubernetesResource otherRepository =
        asStored(AppliedFunction.of(declared("theirs").build(), "ns", "ns.other", revision(1)));
    GenericKubernetesResource handMade = asStored(applied("hand-made", 1, "v1"));
    handMade.getMetadata().setLabels(null);
    GenericKubernetesResource terminating = asStored(applied("terminating", 1, "v1"));
    terminating.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");

    SyncPlan plan = SyncPlanner.plan(
        List.of(applied("kept", 2, "v1")), List.of(gone, otherRepository, handMade, terminating), OWNER, true);

    assertThat(plan.deletes()).extracting(FunctionKey::toString).containsExactly("ns/gone");
  }

  @Test
  void withoutPruneNothingIsDeleted() {
    SyncPlan plan = SyncPlanner.plan(List.of(), List.of(asStored(applied("gone", 1, "v1"))), OWNER, false);

    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.writes()).isZero();
  }

  @Test
  void theSameNameInAnotherNamespaceIsAnotherFunction() {
    GenericKubernetesResource elsewhere =
        asStored(AppliedFunction.of(declared("a").build(), "other", OWNER, revision(1)));

    SyncPlan plan = SyncPlanner.plan(List.of(applied("a", 2, "v1")), List.of(elsewhere), OWNER, true);

    assertThat(keys(plan.creates())).containsExactly("ns/a");
    assertThat(plan.deletes()).extracting(FunctionKey::toString).containsExactly("other/a");
  }

  @Test
  void everyListIsSortedByNamespaceAndName() {
    SyncPlan plan = SyncPlanner.plan(
        List.of(applied("c", 1, "v1"), applied("a", 1, "v1"), applied("b", 1, "v1")), List.of(), OWNER, true);

    assertThat(keys(plan.creates())).containsExactly("ns/a", "ns/b", "ns/c");
  }

  private static AppliedFunction applied(String name, int commit, String version) {
    return AppliedFunction.of(declared(name).env("VERSION", version).build(), "ns", OWNER, revision(commit));
  }

  private static List<String> keys(List<AppliedFunction> functions) {
    return functions.stream().map(f -> f.key().toString()).toList();
  }
}
