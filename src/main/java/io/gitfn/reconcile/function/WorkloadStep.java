package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.workload.WorkloadSettings;
import java.util.Optional;

/**
 * Guarantees that the Function's Deployment, Service and HPA are as its release asks: the workflow of dependents
 * applies the Deployment (only once an image is known good, so a build that runs or failed leaves it running the
 * last one), the Service, and the HPA (only while scaleConfig leaves room to scale). The release is the pin's, or
 * while a rollback holds the version it put back ({@link AutoRollbacks#hold}), or the one the spec asks for. The
 * history notes a release that runs an earlier image again: a revert or a pin.
 */
final class WorkloadStep implements FunctionStep {

  private final AutoRollbacks rollbacks;
  private final BuildlessSources buildless;
  private final WorkloadSettings workloads;
  private final BuildSettings builds;

  WorkloadStep(AutoRollbacks rollbacks, BuildlessSources buildless, WorkloadSettings workloads, BuildSettings builds) {
    this.rollbacks = rollbacks;
    this.buildless = buildless;
    this.workloads = workloads;
    this.builds = builds;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    Optional<Release> release = state.pin() != null ? state.desired()
        : rollbacks.hold(state.fn(), desiredKey(state), state.desired(), state,
            entry -> buildless.pinned(state.fn(), entry));
    state.release(release);
    state.holding(state.pin() == null ? state.status().getRollback() : null);
    new Rollout(release, workloads, builds).handTo(state.context());
    state.context().managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    release.ifPresent(r -> {
      if (!state.newestIs(r.key())) {
        state.record(r.key(), r.image(), FunctionState.REUSED);
      }
      state.status().setImage(r.image());
    });
    return Result.next();
  }

  /**
   * The content key the spec asks for: its release's (a buildless release derives its own key from the plan's), or
   * the plan's while the image is still being built.
   */
  private static Optional<ContentKey> desiredKey(FunctionState state) {
    return state.desired().map(Release::key).or(() -> state.plan().map(FunctionBuildPlan::key));
  }
}
