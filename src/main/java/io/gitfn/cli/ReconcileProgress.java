package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.PendingFunction;
import io.gitfn.api.repository.RepositoryConditionReason;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.cli.WaitOptions.Until;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Where a requested reconcile of a FunctionRepository stands, judged from its status alone. */
record ReconcileProgress(State state, String message) {

  enum State { WAITING, DONE, FAILED }

  /** The Ready reason the controller gives a suspended repository. */
  static final String SUSPENDED = RepositoryConditionReason.SUSPENDED;

  // The Ready reasons of a repository whose revision is applied, whatever its Functions do.
  private static final Set<String> APPLIED = Set.of(RepositoryConditionReason.SUCCEEDED,
      RepositoryConditionReason.ROLLING_OUT, RepositoryConditionReason.FUNCTIONS_FAILED);

  static ReconcileProgress of(FunctionRepository repository, String requestedAt, Until until) {
    FunctionRepositoryStatus status = repository.getStatus();
    if (status == null || !requestedAt.equals(status.getLastHandledRequestedAt())) {
      return waiting();
    }
    Long generation = repository.getMetadata().getGeneration();
    Long observed = status.getObservedGeneration();
    // A spec change (resume sets spec.suspend) counts only once a pass has seen it.
    if (generation != null && observed != null && observed < generation) {
      return waiting();
    }
    List<Condition> conditions = status.getConditions();
    if (Conditions.isTrue(conditions, RepositoryConditionType.STALLED)) {
      return new ReconcileProgress(State.FAILED, Conditions.message(conditions, RepositoryConditionType.STALLED));
    }
    Optional<Condition> ready = Conditions.find(conditions, RepositoryConditionType.READY);
    if (ready.isEmpty()) {
      return waiting();
    }
    String reason = ready.get().getReason();
    if (SUSPENDED.equals(reason)) {
      return new ReconcileProgress(State.FAILED, "the FunctionRepository is suspended");
    }
    if (APPLIED.contains(reason) && until == Until.APPLIED) {
      return new ReconcileProgress(State.DONE, "applied revision " + status.getLastAppliedRevision());
    }
    if ("True".equals(ready.get().getStatus())) {
      return new ReconcileProgress(State.DONE, ready.get().getMessage());
    }
    if ("False".equals(ready.get().getStatus()) && !Conditions.isTrue(conditions, RepositoryConditionType.RECONCILING)) {
      return new ReconcileProgress(State.FAILED, ready.get().getMessage());
    }
    return waiting();
  }

  /** The Functions the repository still waits for, as {@code status.pending} lists them. */
  static List<PendingFunction> pending(FunctionRepository repository) {
    return repository.getStatus() == null || repository.getStatus().getPending() == null ? List.of()
        : repository.getStatus().getPending();
  }

  private static ReconcileProgress waiting() {
    return new ReconcileProgress(State.WAITING, "");
  }
}
