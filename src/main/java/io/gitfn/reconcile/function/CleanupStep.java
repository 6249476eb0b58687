package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Labels;
import io.gitfn.api.function.BuildMode;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.function.Rollout.Release;

/**
 * Once a release has rolled out: the history notes it (automatic rollback returns only to such a version), the
 * finished build Jobs of every other key go with their context ConfigMaps (the history keeps what they built, the
 * image stays in the registry, and the current key's Job stays for its log), the Function leaves an install Job
 * that made its dependency image (the last to leave deletes it), and a buildless Function's source
 * ConfigMaps that its history no longer names go.
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
      deleteFinishedJobsBut(state, release.key());
    }
    boolean buildlessMode = state.plan().isPresent() && settings.modeOf(state.fn()) == BuildMode.BUILDLESS;
    if (buildlessMode || release.buildless()) {
      buildless.collect(state.fn(), state.history(), release.key());
    }
    return Result.next();
  }

  private void deleteFinishedJobsBut(FunctionState state, ContentKey current) {
    for (Job job : state.jobs()) {
      String key = BuildJobs.label(job, Labels.CONTENT_KEY);
      if (LayeredImageStep.isInstallJob(job)) {
        // Shared: once it made its image, each Function leaves it as its own release rolls out, and the last one
        // deletes it. A failed one stays, and says why, until a request to install again.
        if (BuildJobs.succeeded(job)) {
          jobs.leave(state.fn(), job);
        }
      } else if (!current.tag().equals(key) && (BuildJobs.succeeded(job) || BuildJobs.failed(job))) {
        jobs.delete(job);
      }
    }
  }
}
