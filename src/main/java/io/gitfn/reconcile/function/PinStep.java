package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.JOB_FINISHED;
import static io.gitfn.api.function.ConditionReason.NO_BUILD_NEEDED;
import static io.gitfn.api.function.ConditionReason.PINNED_REVISION_UNKNOWN;
import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.function.Rollout.Release;
import java.util.Map;
import java.util.Optional;

/**
 * A Function pinned with {@code gitfn.io/pinned-revision} runs the image its history has for that revision,
 * whatever its spec's source says, until the annotation goes; the pin wins over a rollback, which waits, as it
 * was, until the pin goes. A pin to a revision with no known-good image in the history sets ConfigurationReady
 * False, and the Function keeps running what it runs.
 */
final class PinStep implements FunctionStep {

  private final BuildlessSources buildless;

  PinStep(BuildlessSources buildless) {
    this.buildless = buildless;
  }

  @Override
  public String condition() {
    return CONFIGURATION_READY;
  }

  @Override
  public Result run(FunctionState state) {
    String revision = pinnedRevision(state);
    state.pin(revision);
    state.status().setPinnedRevision(revision);
    if (revision == null) {
      return Result.next();
    }
    String name = state.fn().getMetadata().getName();
    Optional<FunctionHistoryEntry> entry = state.knownGood(revision);
    if (entry.isEmpty()) {
      state.condition(CONFIGURATION_READY, "False", PINNED_REVISION_UNKNOWN, "pinned to " + revision
          + ", which has no built image in status.history; unpin with `gitfn rollback function " + name
          + " --unpin`");
      return Result.next();
    }
    state.revision(revision);
    Release release = buildless.pinned(state.fn(), entry.get());
    String runs = release.buildless() ? "image " + release.image() + " with the source of ConfigMap "
        + release.sourceConfigMap() : "image " + release.image();
    state.condition(BUILD_READY, "True", release.buildless() ? NO_BUILD_NEEDED : JOB_FINISHED, "pinned to "
        + revision + ": " + runs + " runs until `gitfn rollback function " + name + " --unpin`");
    state.desired(Optional.of(release));
    return Result.next();
  }

  private static String pinnedRevision(FunctionState state) {
    Map<String, String> annotations = state.fn().getMetadata().getAnnotations();
    String revision = annotations == null ? null : annotations.get(Annotations.PINNED_REVISION);
    return revision == null || revision.isBlank() ? null : revision.strip();
  }
}
