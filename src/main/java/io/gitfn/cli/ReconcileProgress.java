package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Conditions;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.RepositoryConditionType;
import java.util.List;

/** Where a requested reconcile of a FunctionRepository stands, judged from its status alone. */
record ReconcileProgress(State state, String message) {

  enum State { WAITING, APPLIED, FAILED }

  /** The Ready reason the controller gives a suspended repository. */
  static final String SUSPENDED = "Suspended";

  static ReconcileProgress of(FunctionRepository repository, String requestedAt) {
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
    if (Conditions.isTrue(conditions, RepositoryConditionType.READY)) {
      boolean suspended = Conditions.find(conditions, RepositoryConditionType.READY)
          .map(c -> SUSPENDED.equals(c.getReason())).orElse(false);
      return suspended ? new ReconcileProgress(State.FAILED, "the FunctionRepository is suspended")
          : new ReconcileProgress(State.APPLIED, status.getLastAppliedRevision());
    }
    boolean ready = Conditions.find(conditions, RepositoryConditionType.READY).isPresent();
    if (ready && !Conditions.isTrue(conditions, RepositoryConditionType.RECONCILING)) {
      return new ReconcileProgress(State.FAILED, Conditions.message(conditions, RepositoryConditionType.READY));
    }
    return waiting();
  }

  private static ReconcileProgress waiting() {
    return new ReconcileProgress(State.WAITING, "");
  }
}
