package io.gitfn.reconcile.function;

import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.workload.WorkloadSettings;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.Optional;

/**
 * What a Function's workload dependents build from, handed to them through the pass's context: the release to run,
 * if the pass found one, and the controller's workload settings.
 *
 * @param release the known-good image to run, or empty when the pass has none yet (the first build is running)
 * @param builds the build settings, which a buildless Deployment's init container takes its settings from
 */
record Rollout(Optional<Release> release, WorkloadSettings settings, BuildSettings builds) {

  /**
   * An image and the content key it was built from; for a buildless release, the runtime's base image, the key of
   * its source and the ConfigMap that holds the source.
   *
   * @param sourceConfigMap the buildless source's ConfigMap, or null when the image holds the Function
   */
  record Release(ContentKey key, String image, String sourceConfigMap) {

    Release(ContentKey key, String image) {
      this(key, image, null);
    }

    boolean buildless() {
      return sourceConfigMap != null;
    }
  }

  void handTo(Context<?> context) {
    context.managedWorkflowAndDependentResourceContext().put(Rollout.class, this);
  }

  static Rollout of(Context<?> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(Rollout.class, Rollout.class);
  }
}
