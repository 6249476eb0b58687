package io.gitfn.reconcile.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.LastSync;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whether a pass only reports progress is decided from the repository's status and the informer caches alone, so a
 * restarted controller, or a new leader, decides as the one before it would have.
 */
class RepositoryStateTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final Revision R1 = new Revision("main", "1".repeat(40));
  private static final Revision R2 = new Revision("main", "2".repeat(40));

  private final Map<String, Function> cached = new HashMap<>();

  @Test
  void aPassAfterAFreshSyncOfTheSameRevisionOnlyReportsProgressFromTheCache() {
    FunctionRepository repository = synced(NOW.minus(Duration.ofMinutes(3)));
    cache("hello", 4L, "True");

    RepositoryState state = state(repository, fetched(R1));

    assertThat(state.atRest()).isTrue();
    assertThat(state.functions()).hasValueSatisfying(functions -> assertThat(functions).singleElement()
        .satisfies(p -> assertThat(p.settled()).isTrue()));
    assertThat(state.beat()).as("the next full sync keeps its beat").isEqualTo(Duration.ofMinutes(7));
  }

  @Test
  void aNewRevisionAFailingCheckOrAPendingRequestIsAFullPass() {
    cache("hello", 4L, "True");

    assertThat(state(synced(NOW), fetched(R2)).atRest()).as("a new revision").isFalse();
    assertThat(state(synced(NOW), new SourceState(Optional.of(R1), Optional.of(NOW), Optional.of("timeout"), 1,
        Optional.empty())).atRest()).as("Git fails now").isFalse();
    FunctionRepository requested = synced(NOW);
    requested.getMetadata().setAnnotations(Map.of(Annotations.REQUESTED_AT, "2026-11-27T11:59:59Z"));
    assertThat(state(requested, fetched(R1)).atRest()).as("a request not yet handled").isFalse();
  }

  @Test
  void aSpecOrLabelChangeOrAnOldSyncIsAFullPass() {
    cache("hello", 4L, "True");
    FunctionRepository edited = synced(NOW);
    edited.getMetadata().setGeneration(3L);
    FunctionRepository relabelled = synced(NOW);
    relabelled.getMetadata().setLabels(Map.of("gitfn.io/shard", "b"));

    assertThat(state(edited, fetched(R1)).atRest()).as("another generation").isFalse();
    assertThat(state(relabelled, fetched(R1)).atRest()).as("other labels: the shard label may move").isFalse();
    assertThat(state(synced(NOW.minus(Duration.ofMinutes(10))), fetched(R1)).atRest()).as("due for a full sync")
        .isFalse();
  }

  @Test
  void aFullSyncThatFoundNothingToChangeDefersTheNextOneThoughStatusStillShowsTheOlderOne() {
    cache("hello", 4L, "True");
    FunctionRepository syncedLongAgo = synced(NOW.minus(Duration.ofMinutes(25)));

    assertThat(state(syncedLongAgo, fetched(R1), Optional.of(NOW.minus(Duration.ofMinutes(3)))).atRest())
        .as("confirmed 3 minutes ago by this process").isTrue();
    assertThat(state(syncedLongAgo, fetched(R1), Optional.of(NOW.minus(Duration.ofMinutes(3)))).beat())
        .as("the next full sync is due 10 minutes after the confirmation").isEqualTo(Duration.ofMinutes(7));
    assertThat(state(syncedLongAgo, fetched(R1), Optional.of(NOW.minus(Duration.ofMinutes(12)))).atRest())
        .as("confirmed too long ago").isFalse();
    assertThat(state(syncedLongAgo, fetched(R1)).atRest())
        .as("a restarted controller, which has confirmed nothing yet, runs the full sync once").isFalse();
  }

  @Test
  void aPassWhoseOwnFullSyncConfirmedTheLastOneLooksAgainAResyncIntervalLaterNotAtOnce() {
    cache("hello", 4L, "True");
    RepositoryState state = state(synced(NOW.minus(Duration.ofMinutes(25))), fetched(R1));
    assertThat(state.beat()).as("the full sync is due").isEqualTo(Duration.ZERO);

    state.confirmed(NOW);

    assertThat(state.beat()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void aFunctionEditedByHandOrGoneOrNotYetCachedIsAFullPass() {
    cache("hello", 5L, "True");
    assertThat(state(synced(NOW), fetched(R1)).atRest()).as("generation 5, applied at 4").isFalse();

    cached.clear();
    assertThat(state(synced(NOW), fetched(R1)).atRest()).as("not in the cache").isFalse();
  }

  @Test
  void aRestartedControllerWithNoAnswerFromGitYetIsNotAtRest() {
    cache("hello", 4L, "True");

    RepositoryState state = state(synced(NOW), new SourceState(Optional.empty(), Optional.empty(), Optional.empty(),
        0, Optional.empty()));

    assertThat(state.atRest()).isFalse();
    assertThat(state.beat()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void theLabelsDigestIgnoresTheirOrder() {
    FunctionRepository a = synced(NOW);
    a.getMetadata().setLabels(Map.of("x", "1", "y", "2"));
    FunctionRepository b = synced(NOW);
    b.getMetadata().setLabels(new java.util.TreeMap<>(Map.of("y", "2", "x", "1")));

    assertThat(RepositoryState.labelsDigest(a)).isEqualTo(RepositoryState.labelsDigest(b)).startsWith("sha256:");
  }

  private RepositoryState state(FunctionRepository repository, SourceState source) {
    return state(repository, source, Optional.empty());
  }

  private RepositoryState state(FunctionRepository repository, SourceState source, Optional<Instant> confirmed) {
    return new RepositoryState(repository, null, source, (namespace, name) ->
        Optional.ofNullable(cached.get(namespace + "/" + name)), confirmed, Clock.fixed(NOW, ZoneOffset.UTC),
        new KubernetesSerialization());
  }

  private static SourceState fetched(Revision revision) {
    return new SourceState(Optional.of(revision), Optional.of(NOW), Optional.empty(), 0, Optional.empty());
  }

  /** Revision r1 applied in full at {@code at}, with hello at generation 4. */
  private static FunctionRepository synced(Instant at) {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setGeneration(2L);
    repository.setSpec(new FunctionRepositorySpec());
    repository.getSpec().setInterval("1m");
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastAppliedRevision(R1.toString());
    status.setLastSync(new LastSync(at.toString(), 2L, RepositoryState.labelsDigest(repository)));
    InventoryEntry hello = new InventoryEntry("hello", "shop");
    hello.setGeneration(4L);
    status.setInventory(List.of(hello));
    repository.setStatus(status);
    return repository;
  }

  private void cache(String name, long generation, String running) {
    Function fn = new Function();
    fn.getMetadata().setName(name);
    fn.getMetadata().setNamespace("shop");
    fn.getMetadata().setGeneration(generation);
    FunctionStatus status = new FunctionStatus();
    status.setObservedGeneration(generation);
    status.setConditions(List.of(condition("ConfigurationReady", "True"), condition("BuildReady", "True"),
        condition("Running", running)));
    fn.setStatus(status);
    cached.put("shop/" + name, fn);
  }

  private static io.fabric8.kubernetes.api.model.Condition condition(String type, String status) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason("R").withMessage("m").build();
  }
}
