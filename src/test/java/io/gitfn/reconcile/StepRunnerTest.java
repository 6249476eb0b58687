package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The runner is the one place a pass's failures are caught: whatever a step throws shows in status and in one Event,
 * the status is written before anything that depends on it happens, and a failure that may pass is handed back to
 * the SDK to be retried with backoff.
 */
class StepRunnerTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T12:00:00Z"), ZoneOffset.UTC);

  private final List<String> log = new ArrayList<>();
  private final RecordingWriter writer = new RecordingWriter();
  private final StepRunner<FunctionRepository, State> runner = new StepRunner<>(new OneCondition(), writer);

  @Test
  void aRuntimeExceptionInAnyStepShowsInStatusAndAnEventAndIsRetriedWithBackoff() {
    State state = state();
    Steps<State> steps = Steps.of(ran("first"), new PlanStep(), ran("never")).always(ran("report"));

    assertThatThrownBy(() -> runner.run(state, steps)).isInstanceOf(RetryLater.class)
        .hasMessageContaining("FunctionRepository shop/infra: ReconciliationFailed")
        .hasCauseInstanceOf(IllegalStateException.class);

    assertThat(log).containsExactly("first", "report", "write");
    assertThat(writer.written.getStatus().getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("Unknown");
      assertThat(c.getReason()).isEqualTo("ReconciliationFailed");
      assertThat(c.getMessage()).isEqualTo("the Plan step failed and is retried with backoff: the cache was empty");
    });
    assertThat(writer.events).containsExactly(new StatusDraft.Event(true, "ReconciliationFailed",
        writer.written.getStatus().getConditions().get(0).getMessage()));
  }

  @Test
  void anApiErrorSaysWhatTheServerSaidAndNamesTheStep() {
    State state = state();
    Steps<State> steps = Steps.of(new BuildStep());

    assertThatThrownBy(() -> runner.run(state, steps)).isInstanceOf(RetryLater.class);

    assertThat(Conditions.message(writer.written.getStatus().getConditions(), "Ready")).isEqualTo(
        "the Build step failed and is retried with backoff: jobs.batch \"hello\" is forbidden: exceeded quota: q");
  }

  @Test
  void aStallIsShownAndLookedAtAgainOnlyWhenTheStepAsks() throws Exception {
    State state = state();

    UpdateControl<FunctionRepository> control = runner.run(state, Steps.of(s -> {
      throw StepFailure.stalled("InvalidSpec", "spec.ref: no such ref").lookingAgainAfter(Duration.ofMinutes(1));
    }));

    assertThat(Conditions.find(writer.written.getStatus().getConditions(), "Ready")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("InvalidSpec");
    });
    assertThat(control.getScheduleDelay()).contains(Duration.ofMinutes(1).toMillis());
  }

  @Test
  void aWaitIsLookedAtAgainAtItsOwnTimeWithoutAWarning() throws Exception {
    State state = state();

    UpdateControl<FunctionRepository> control = runner.run(state, Steps.of(s -> {
      throw StepFailure.waiting("DependencyNotReady", "waiting for shop/base", Duration.ofSeconds(30));
    }));

    assertThat(control.getScheduleDelay()).contains(30_000L);
    assertThat(writer.events).singleElement().satisfies(e -> assertThat(e.warning()).isFalse());
  }

  @Test
  void aStepThatStopsEndsTheListButTheReportsStillRun() throws Exception {
    State state = state();

    UpdateControl<FunctionRepository> control = runner.run(state, Steps.of(s -> Result.stopFor(Duration.ofMinutes(1)),
        ran("never")).always(ran("report")));

    assertThat(log).containsExactly("report", "write");
    assertThat(control.getScheduleDelay()).contains(Duration.ofMinutes(1).toMillis());
  }

  @Test
  void aListThatGoesOnAfterFailuresRunsEveryStepAndRetriesIfAnyMayPass() {
    State state = state();
    Steps<State> steps = Steps.<State>of(s -> {
      throw StepFailure.stalled("InvalidFunctionSpec", "broken");
    }, ran("second"), s -> {
      throw StepFailure.retry("SourceUpdateFailed", "timeout", null);
    }, ran("fourth")).goingOnAfterFailures();

    assertThatThrownBy(() -> runner.run(state, steps)).isInstanceOf(RetryLater.class)
        .hasMessageContaining("SourceUpdateFailed: timeout");
    assertThat(log).containsExactly("second", "fourth", "write");
  }

  @Test
  void nothingThatDependsOnTheStatusHappensWhenItsWriteFails() {
    State state = state();
    writer.fail = new KubernetesClientException("admission webhook denied the request");
    Steps<State> steps = Steps.of(s -> {
      s.afterWrite(() -> log.add("dependent woken"));
      s.draft().set("Ready", "True", "Succeeded", "runs");
      return Result.next();
    });

    assertThatThrownBy(() -> runner.run(state, steps)).isSameAs(writer.fail);

    assertThat(log).containsExactly("write");
    assertThat(writer.events).isEmpty();
  }

  @Test
  void theSoonestLookAnyStepAskedForWinsOverTheKindsBeat() throws Exception {
    State state = state();

    UpdateControl<FunctionRepository> control = runner.run(state, Steps.of(s -> Result.within(Duration.ofSeconds(30)),
        s -> Result.within(Duration.ofSeconds(5))));

    assertThat(control.getScheduleDelay()).contains(5_000L);
  }

  private Step<State> ran(String name) {
    return s -> {
      log.add(name);
      return Result.next();
    };
  }

  private static State state() {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setName("infra");
    repository.getMetadata().setNamespace("shop");
    repository.getMetadata().setGeneration(1L);
    repository.setSpec(new FunctionRepositorySpec());
    return new State(repository);
  }

  /** A pass of a kind whose one reported condition, Ready, shows every failure. */
  static final class State extends PassState<FunctionRepository, FunctionRepositoryStatus> {
    State(FunctionRepository repository) {
      super(repository, null, FunctionRepositoryStatus::new, Set.of("Ready"), CLOCK, new KubernetesSerialization());
    }
  }

  private static final class OneCondition implements Summary<State> {
    @Override
    public void failed(State state, Step<State> step, StepFailure failure) {
      boolean stalled = failure instanceof StepFailure.Stalled;
      boolean warning = !(failure instanceof StepFailure.Waiting waiting) || waiting.warning();
      state.draft().set("Ready", stalled ? "False" : "Unknown", failure.reason(), failure.getMessage(), warning);
    }

    @Override
    public void summarize(State state) {}

    @Override
    public Optional<Duration> beat(State state) {
      return Optional.of(Duration.ofMinutes(10));
    }
  }

  private static final class PlanStep implements Step<State> {
    @Override
    public Result run(State state) {
      throw new IllegalStateException("the cache was empty");
    }
  }

  private static final class BuildStep implements Step<State> {
    @Override
    public Result run(State state) {
      KubernetesClientException refused = new KubernetesClientException(new io.fabric8.kubernetes.api.model
          .StatusBuilder().withCode(403).withMessage("jobs.batch \"hello\" is forbidden: exceeded quota: q").build());
      throw refused;
    }
  }

  /** What the API server would be told: the status written, then the Events, or the write's failure. */
  private final class RecordingWriter implements StatusWriter {
    FunctionRepository written;
    List<StatusDraft.Event> events = new ArrayList<>();
    RuntimeException fail;

    @Override
    public void write(PassState<?, ?> state) {
      log.add("write");
      state.draft().finish();
      if (fail != null) {
        throw fail;
      }
      written = (FunctionRepository) state.resource();
      events.addAll(state.draft().events());
    }
  }
}
