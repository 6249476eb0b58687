package io.gitfn.api;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** A status with Kubernetes-convention conditions and the generation they describe: both of gitfn's kinds have one. */
public interface ConditionedStatus {

  List<Condition> getConditions();

  void setConditions(List<Condition> conditions);

  Long getObservedGeneration();

  void setObservedGeneration(Long observedGeneration);
}
