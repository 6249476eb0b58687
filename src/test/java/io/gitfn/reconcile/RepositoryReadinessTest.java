package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Conditions;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.function.FunctionProgress.Phase;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.source.Revision;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A FunctionRepository is Ready when its revision runs, not when it is applied: every Function of it must run the
 * applied spec, and status names those that do not.
 */
class RepositoryReadinessTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private static final Revision REVISION = new Revision("main", "a".repeat(40));

  @Test
  void readyOnlyWhenEveryFunctionRuns() {
    FunctionRepository repository = repository();

    applied(repository, progress("hello", Phase.RUNNING, "DeploymentReady", "ok"),
        progress("bye", Phase.RUNNING, "DeploymentReady", "ok"));

    assertThat(condition(repository, "Ready")).extracting(Condition::getStatus, Condition::getReason,
        Condition::getMessage).containsExactly("True", "Succeeded", "revision main@sha1:" + "a".repeat(40)
        + " runs: 2 Functions ready");
    assertThat(Conditions.find(repository.getStatus().getConditions(), "Reconciling")).isEmpty();
    assertThat(repository.getStatus().getPending()).isNull();
  }

  @Test
  void appliedButNotRunningIsReconcilingWithTheFunctionsStillInProgress() {
    FunctionRepository repository = repository();

    applied(repository, progress("hello", Phase.RUNNING, "DeploymentReady", "ok"),
        progress("bye", Phase.ROLLING_OUT, "JobRunning", "Job bye-1 builds registry/bye:1"));

    assertThat(condition(repository, "Ready")).extracting(Condition::getStatus, Condition::getReason)
        .containsExactly("Unknown", "RollingOut");
    assertThat(condition(repository, "Ready").getMessage()).isEqualTo("revision main@sha1:" + "a".repeat(40)
        + " is applied; 1 of 2 Functions do not run it yet: bye: Job bye-1 builds registry/bye:1");
    assertThat(condition(repository, "Reconciling").getStatus()).isEqualTo("True");
    assertThat(repository.getStatus().getPending()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("bye");
      assertThat(p.getNamespace()).isEqualTo("shop");
      assertThat(p.getPhase()).isEqualTo("RollingOut");
      assertThat(p.getReason()).isEqualTo("JobRunning");
    });
  }

  @Test
  void aFailedFunctionMakesItNotReadyOnceNothingElseMoves() {
    FunctionRepository repository = repository();

    applied(repository, progress("hello", Phase.FAILED, "JobFailed", "Job hello-1 failed"),
        progress("bye", Phase.RUNNING, "DeploymentReady", "ok"));

    assertThat(condition(repository, "Ready")).extracting(Condition::getStatus, Condition::getReason,
        Condition::getMessage).containsExactly("False", "FunctionsFailed", "revision main@sha1:" + "a".repeat(40)
        + " is applied, but 1 of 2 Functions failed: hello: Job hello-1 failed");
    assertThat(Conditions.find(repository.getStatus().getConditions(), "Reconciling")).isEmpty();
    assertThat(Conditions.find(repository.getStatus().getConditions(), "Stalled")).isEmpty();
    assertThat(repository.getStatus().getPending()).extracting("phase").containsExactly("Failed");
  }

  @Test
  void failedFunctionsAreListedFirstWhileOthersStillMove() {
    FunctionRepository repository = repository();

    applied(repository, progress("a", Phase.ROLLING_OUT, "DeploymentWaiting", "rolling"),
        progress("b", Phase.FAILED, "DeploymentFailed", "deadline"));

    assertThat(condition(repository, "Ready").getReason()).isEqualTo("RollingOut");
    assertThat(condition(repository, "Ready").getMessage()).endsWith(
        "1 of 2 Functions do not run it yet and 1 failed: b: deadline; a: rolling");
    assertThat(repository.getStatus().getPending()).extracting("name").containsExactly("b", "a");
  }

  @Test
  void aPinnedFunctionDoesNotHoldTheRepositoryBackAndIsNamed() {
    FunctionRepository repository = repository();

    applied(repository, progress("hello", Phase.PINNED, "Pinned", "pinned to main@sha1:bbb"));

    assertThat(condition(repository, "Ready").getStatus()).isEqualTo("True");
    assertThat(condition(repository, "Ready").getMessage())
        .endsWith("runs: 1 Function ready; pinned, so running another revision: hello: pinned to main@sha1:bbb");
  }

  @Test
  void pendingIsBoundedAndTheMessageCountsTheRest() {
    FunctionRepository repository = repository();

    applied(repository, IntStream.range(0, 25)
        .mapToObj(i -> progress("fn-" + i, Phase.ROLLING_OUT, "Pending", "new")).toArray(FunctionProgress[]::new));

    assertThat(repository.getStatus().getPending()).hasSize(FunctionRepositoryStatus.PENDING_LIMIT);
    assertThat(condition(repository, "Ready").getMessage()).contains("25 of 25 Functions").endsWith("; and 5 more");
  }

  private static void applied(FunctionRepository repository, FunctionProgress... progress) {
    repository.setStatus(new FunctionRepositoryStatus());
    RepositoryPass pass = new RepositoryPass(repository, CLOCK, new KubernetesSerialization());
    List<Function> functions = java.util.Arrays.stream(progress).map(p -> {
      Function fn = new Function();
      fn.getMetadata().setName(p.name());
      return fn;
    }).toList();
    pass.applied(REVISION, functions, new SyncResult(List.of(), List.of(), List.of(), List.of(), 0, List.of()),
        List.of(progress));
    repository.getStatus().setConditions(pass.conditions());
  }

  private static FunctionProgress progress(String name, Phase phase, String reason, String message) {
    return new FunctionProgress("shop", name, 1, phase, reason, message);
  }

  private static FunctionRepository repository() {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setGeneration(1L);
    repository.setSpec(new FunctionRepositorySpec());
    return repository;
  }

  private static Condition condition(FunctionRepository repository, String type) {
    return Conditions.find(repository.getStatus().getConditions(), type).orElseThrow();
  }
}
