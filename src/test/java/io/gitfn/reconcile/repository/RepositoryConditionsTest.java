package io.gitfn.reconcile.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionProgress.Phase;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.CommitSummary;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A FunctionRepository's conditions in kstatus' words, from what its pass found: Ready sums it up, Reconciling while
 * the controller works on it by itself, Stalled while only a person can move it, never both.
 */
class RepositoryConditionsTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final Revision REVISION = new Revision("main", "a".repeat(40));

  private final RepositoryConditions summary = new RepositoryConditions();

  @Test
  void aRevisionThatRunsIsReadyAndNeitherReconcilingNorStalled() throws Exception {
    RepositoryState state = state(Optional.empty());
    state.functions(List.of(new FunctionProgress("shop", "hello", 1, Phase.RUNNING, "DeploymentReady", "ok")));
    state.appliedNote("Applied revision " + REVISION + ": 1 Functions (1 created, 0 updated, 0 deleted)");

    new ProgressStep().run(state);
    summary.summarize(state);

    assertThat(conditions(state)).extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Ready", "True", "Succeeded"));
    assertThat(state.verdict()).hasValueSatisfying(v -> assertThat(v.state()).isEqualTo(CommitState.SUCCESS));
    assertThat(state.draft().events()).singleElement().satisfies(e -> assertThat(e.message())
        .isEqualTo("Applied revision " + REVISION + ": 1 Functions (1 created, 0 updated, 0 deleted); revision "
            + REVISION + " runs: 1 Function ready"));
  }

  @Test
  void aStallIsReadyFalseAndStalledAndRecordsTheRevisionItWasApplying() {
    RepositoryState state = state(Optional.empty());
    state.attempted(REVISION);
    state.commit(new CommitSummary("Break hello", "Ada", NOW));

    summary.failed(state, null, StepFailure.stalled("InvalidRevision", "functions/hello.yaml:3: spec.runtime: no"));
    summary.summarize(state);

    assertThat(conditions(state)).extracting(Condition::getType, Condition::getStatus)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Ready", "False"),
            org.assertj.core.groups.Tuple.tuple("Stalled", "True"));
    assertThat(state.status().getHistory()).singleElement().satisfies(entry -> {
      assertThat(entry.getOutcome()).isEqualTo("Failed");
      assertThat(entry.getMessage()).isEqualTo("Break hello");
    });
    assertThat(state.verdict()).hasValueSatisfying(v -> assertThat(v.state()).isEqualTo(CommitState.FAILURE));
    assertThat(state.draft().events()).singleElement().satisfies(e -> assertThat(e.warning()).isTrue());
  }

  @Test
  void aRetryIsReconcilingNotStalled() {
    RepositoryState state = state(Optional.empty());

    summary.failed(state, null, StepFailure.retry("SecretUnreadable", "the API server did not answer", null));
    summary.summarize(state);

    assertThat(conditions(state)).extracting(Condition::getType, Condition::getStatus)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Ready", "False"),
            org.assertj.core.groups.Tuple.tuple("Reconciling", "True"));
    assertThat(state.status().getHistory()).as("not the revision's fault").isNull();
  }

  @Test
  void gitFailingNowOutranksEverythingButAStall() {
    RepositoryState state = state(Optional.of("ls-remote: connection refused"));
    state.status().setLastAppliedRevision(REVISION.toString());

    summary.failed(state, null, StepFailure.waiting("DependencyNotReady", "waiting for shop/base",
        Duration.ofSeconds(30)));
    summary.summarize(state);

    assertThat(Conditions.find(conditions(state), "Ready")).hasValueSatisfying(c -> {
      assertThat(c.getReason()).isEqualTo("SourceFailed");
      assertThat(c.getMessage()).isEqualTo("Git check failed; keeping " + REVISION + ": ls-remote: connection"
          + " refused");
    });
  }

  @Test
  void aPassThatFoundNothingLeavesTheStatusAsItWas() {
    RepositoryState state = state(Optional.empty());

    summary.summarize(state);

    assertThat(state.draft().finish()).isTrue(); // only observedGeneration, from none
    assertThat(conditions(state)).isEmpty();
  }

  private static List<Condition> conditions(RepositoryState state) {
    return state.draft().conditions();
  }

  private static RepositoryState state(Optional<String> gitError) {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setGeneration(1L);
    repository.setSpec(new FunctionRepositorySpec());
    repository.setStatus(new FunctionRepositoryStatus());
    return new RepositoryState(repository, null, new SourceState(Optional.of(REVISION), Optional.of(NOW), gitError,
        gitError.isPresent() ? 1 : 0, Optional.empty()), (namespace, name) -> Optional.empty(),
        Optional.empty(), Clock.fixed(NOW, ZoneOffset.UTC), new KubernetesSerialization());
  }
}
