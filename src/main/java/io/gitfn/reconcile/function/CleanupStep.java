package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.function.BuildMode;
import io.gitfn.build.BuildSettings;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.function.Rollout.Release;

/**
 * Once a release has rolled out: the history notes it (automatic rollback returns only to such a version), the
 * Function leaves an install Job that made its dependency image (the last to leave deletes it), a finished build
 * Job an earlier gitfn's buildah or kaniko left goes with its context ConfigMap (the image stays in the registry),
 * and a buildless Function's source ConfigMaps that its history no longer names go.
 */
final class CleanupStep implements FunctionStep {

  private final BuildJobs jobs;
  private final BuildlessSources buildless;
  private final BuildSettings settings;

  CleanupStep(BuildJobs jobs, BuildlessSources buildless, BuildSettings settings) {
    this.jobs = jobs;
    this.buildless = buildless;
    this.settings = settings;
  }

  @Override
  public String condition() {
    return RUNNING;
  }

  @Override
  public Result run(FunctionState state) {
    if (!state.rolledOut() || state.release().isEmpty()) {
      return Result.next();
    }
    Release release = state.release().get();
    state.markRolledOut(release.key());
    if (state.plan().isPresent() && state.pin() == null) {
      cleanUpJobs(state);
    }
    boolean buildlessMode = state.plan().isPresent() && settings.modeOf(state.fn()) == BuildMode.BUILDLESS;
    if (buildlessMode || release.buildless()) {
      buildless.collect(state.fn(), state.history(), release.key());
    }
    return Result.next();
  }

  private void cleanUpJobs(FunctionState state) {
    for (Job job : state.jobs()) {
      if (LayeredImageStep.isInstallJob(job)) {
        // Shared: once it made its image, each Function leaves it as its own release rolls out, and the last one
        // deletes it. A failed one stays, and says why, until a request to install again.
        if (BuildJobs.succeeded(job)) {
          jobs.leave(state.fn(), job);
        }
      } else if (BuildJobs.succeeded(job) || BuildJobs.failed(job)) {
        jobs.delete(job); // an earlier gitfn's build Job: nothing reads it any more
      }
    }
  }
}
