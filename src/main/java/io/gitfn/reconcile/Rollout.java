package io.gitfn.reconcile;

import io.gitfn.build.ContentKey;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.Optional;

/**
 * What a Function's workload dependents build from, handed to them through the pass's context: the release to run,
 * if the pass found one, and the controller's workload settings.
 *
 * @param release the known-good image to run, or empty when the pass has none yet (the first build is running)
 */
record Rollout(Optional<Release> release, WorkloadSettings settings) {

  /** An image and the content key it was built from. */
  record Release(ContentKey key, String image) {}

  void handTo(Context<?> context) {
    context.managedWorkflowAndDependentResourceContext().put(Rollout.class, this);
  }

  static Rollout of(Context<?> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(Rollout.class, Rollout.class);
  }
}
