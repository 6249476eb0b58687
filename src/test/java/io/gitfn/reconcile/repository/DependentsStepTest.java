package io.gitfn.reconcile.repository;

import static io.gitfn.reconcile.repository.TestRepository.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StepRunner;
import io.gitfn.reconcile.Steps;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A repository wakes the ones that depend on it only when the API server shows it running where it did not before:
 * one that was Ready already, or is not Ready now, wakes nobody. Finding and waking the dependents reads the
 * controller's cache of repositories, which these passes have not (no Context); that is RepositoryReadinessIT's and
 * DeniedStatusWriteIT's.
 */
class DependentsStepTest {

  private final List<String> log = new ArrayList<>();
  private final WakeUps<FunctionRepository> wakeUps = new WakeUps<>("repositories");

  @BeforeEach
  void listen() {
    wakeUps.source().setEventHandler(event -> log.add("woke " + event.getRelatedCustomResourceID().getName()));
    wakeUps.source().start();
  }

  @Test
  void aRepositoryThatWasReadyAlreadyWakesNobody() throws Exception {
    FunctionRepositoryStatus ready = new FunctionRepositoryStatus();
    ready.setObservedGeneration(1L);
    ready.setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType("Ready").withStatus("True")
        .withReason("Succeeded").withMessage("runs").build())));

    run(TestRepository.infra().status(ready).pass(TestRepository.fetched(REVISION)), "True");

    assertThat(log).containsExactly("write");
  }

  @Test
  void aRepositoryThatIsNotReadyWakesNobody() throws Exception {
    run(TestRepository.infra().pass(TestRepository.fetched(REVISION)), "Unknown");

    assertThat(log).containsExactly("write");
  }

  /** A pass whose finding leaves Ready {@code ready}, written as the API server would take it. */
  private void run(RepositoryState state, String ready) throws Exception {
    new StepRunner<FunctionRepository, RepositoryState>(new RepositoryConditions(), s -> {
      log.add("write");
      s.draft().finish();
    }).run(state, Steps.<RepositoryState>of(s -> {
      s.found(Finding.settled(ready, "True".equals(ready) ? "Succeeded" : "RollingOut", "revision " + REVISION));
      return Result.next();
    }).always(new DependentsStep(wakeUps)));
  }
}
