package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.function.TestFunction;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StatusWriter;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepRunner;
import io.gitfn.reconcile.Steps;
import io.gitfn.reconcile.WakeUps;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Once the API server shows a Function's new status, the FunctionRepository its {@code gitfn.io/repository} label
 * names is woken when the Function's progress moved (another phase or reason, or a generation the controller had not
 * acted on), and only then. A write that fails wakes nobody.
 *
 * <p>The pass runs through the {@link StepRunner}, the only place after-write actions run; its writer here lands the
 * write as the status writer does before it patches ({@code StatusDraft.finish}). The repositories' wake-ups are the
 * SDK's own event source, started with a handler that records what it is given, as the operator would.
 */
class RepositoryNoticeStepTest {

  private final List<String> log = new ArrayList<>();
  private final WakeUps<FunctionRepository> repositories = new WakeUps<>("repositories");

  @BeforeEach
  void listen() {
    repositories.source().setEventHandler(event -> log.add("woke " + event.getRelatedCustomResourceID().getNamespace()
        .orElse("") + "/" + event.getRelatedCustomResourceID().getName()));
    repositories.source().start();
  }

  @Test
  void aFunctionWhoseProgressMovedWakesTheRepositoryItsLabelNamesOnceTheStatusIsWritten() throws Exception {
    Function fn = building(TestFunction.inline().metadataLabel(Labels.REPOSITORY, "shop.infra"));

    run(fn, built(), landed());

    assertThat(log).containsExactly("write", "woke shop/infra");
  }

  @Test
  void aPassThatOnlyRewordsItsConditionsWakesNobody() throws Exception {
    Function fn = building(TestFunction.inline().metadataLabel(Labels.REPOSITORY, "shop.infra"));

    run(fn, s -> {
      s.condition("BuildReady", "Unknown", "JobRunning", "Job orders-1 builds it: step 3 of 5");
      return Result.next();
    }, landed());

    assertThat(log).containsExactly("write");
  }

  @Test
  void aFunctionEditedBySomeoneElseWakesItsRepositoryEvenIfItRunsAsBefore() throws Exception {
    Function fn = TestFunction.inline().metadataLabel(Labels.REPOSITORY, "shop.infra").build();
    fn.getMetadata().setGeneration(3L);
    fn.setStatus(status(2L, "True", "JobFinished", "True", "DeploymentReady"));

    run(fn, s -> Result.next(), landed());

    assertThat(log).containsExactly("write", "woke shop/infra");
  }

  @Test
  void aFunctionOfNoRepositoryWakesNobody() throws Exception {
    run(building(TestFunction.inline()), built(), landed());
    run(building(TestFunction.inline().metadataLabel(Labels.REPOSITORY, "infra")), built(), landed());

    assertThat(log).as("no label, and a label that names no namespace").containsExactly("write", "write");
  }

  @Test
  void aWriteThatFailsWakesNobody() {
    Function fn = building(TestFunction.inline().metadataLabel(Labels.REPOSITORY, "shop.infra"));
    RuntimeException refused = new IllegalStateException("admission webhook denied the request");

    assertThatThrownBy(() -> run(fn, built(), state -> {
      log.add("write");
      throw refused;
    })).isSameAs(refused);

    assertThat(log).containsExactly("write");
  }

  private void run(Function fn, Step<FunctionState> step, StatusWriter writer) throws Exception {
    new StepRunner<Function, FunctionState>(new FunctionConditions(), writer)
        .run(Passes.of(fn), Steps.of(step).always(new RepositoryNoticeStep(repositories)));
  }

  /** The API server takes the write: the status the object shows is the one the pass leaves. */
  private StatusWriter landed() {
    return state -> {
      log.add("write");
      state.draft().finish();
    };
  }

  /** The build finished: BuildReady turns True, and Running waits for the Deployment. */
  private static Step<FunctionState> built() {
    return s -> {
      s.condition("BuildReady", "True", "JobFinished", "image built");
      return Result.next();
    };
  }

  /** A Function at generation 2 whose build runs, as its status shows. */
  private static Function building(TestFunction orders) {
    Function fn = orders.build();
    fn.getMetadata().setGeneration(2L);
    fn.setStatus(status(2L, "Unknown", "JobRunning", "Unknown", "DeploymentWaiting"));
    return fn;
  }

  private static FunctionStatus status(long observed, String built, String buildReason, String running,
      String runningReason) {
    FunctionStatus status = new FunctionStatus();
    status.setObservedGeneration(observed);
    status.setConditions(new ArrayList<>(List.of(condition("ConfigurationReady", "True", "SourceUpdated"),
        condition("BuildReady", built, buildReason), condition("Running", running, runningReason))));
    return status;
  }

  private static Condition condition(String type, String status, String reason) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(reason).build();
  }
}
