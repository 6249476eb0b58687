package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.BUILD_READY;

import io.gitfn.api.function.BuildMode;
import io.gitfn.build.BuildSettings;
import io.gitfn.reconcile.Result;

/**
 * For a Function in buildless mode ({@code docs/buildless.md}): guarantees that the plan's source ConfigMap exists,
 * and then its release (the runtime's base image, the source, the dependencies installed as Pods start) is the
 * desired one. Nothing is built. Not for a pinned Function.
 */
final class BuildlessStep implements FunctionStep {

  private final BuildlessSources sources;
  private final BuildSettings settings;

  BuildlessStep(BuildlessSources sources, BuildSettings settings) {
    this.sources = sources;
    this.settings = settings;
  }

  @Override
  public String condition() {
    return BUILD_READY;
  }

  @Override
  public Result run(FunctionState state) {
    if (state.pin() == null && state.plan().isPresent() && settings.modeOf(state.fn()) == BuildMode.BUILDLESS) {
      state.desired(sources.ensure(state.fn(), state.plan().get(), state));
    }
    return Result.next();
  }
}
