package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.CRASH_LOOPING;
import static io.gitfn.api.function.ConditionReason.DEPENDENCY_INSTALL_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_FAILED;
import static io.gitfn.api.function.ConditionReason.DEPLOYMENT_WAITING;
import static io.gitfn.api.function.ConditionReason.ROLLED_BACK;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.build.ContentKey;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.function.Rollout.Release;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Automatic rollback: when a Function's new version fails to roll out, the last version that rolled out runs
 * again, with no build, and the failed content key is quarantined.
 *
 * <p>A rollout fails when the Deployment passes its progress deadline, a new Pod crash-loops, or a buildless
 * Pod's dependency install fails ({@link #FAILURES}). The new version's Pods never took traffic (the Deployment's
 * maxUnavailable is 0), so going back only removes them. "Last good" is the newest history entry that rolled out.
 * The quarantine ({@code status.rollback}) holds until the spec asks for another key, or a new
 * {@code gitfn.io/requested-at} asks to try the failed one again. A build that fails needs none of this: the
 * Deployment never moved, and the failed Job is not retried until asked.
 */
final class AutoRollbacks {

  private static final Logger log = LoggerFactory.getLogger(AutoRollbacks.class);

  /** The Running reasons that make gitfn roll back. */
  static final Set<String> FAILURES = Set.of(DEPLOYMENT_FAILED, CRASH_LOOPING, DEPENDENCY_INSTALL_FAILED);

  private final boolean enabled;
  private final Clock clock;
  private final MeterRegistry meters;

  AutoRollbacks(boolean enabled, Clock clock, MeterRegistry meters) {
    this.enabled = enabled;
    this.clock = clock;
    this.meters = meters;
  }

  /** On unless the controller or the Function's {@code gitfn.io/auto-rollback} says otherwise; the Function wins. */
  boolean appliesTo(Function fn) {
    Optional<String> annotation = Annotations.get(fn, Annotations.AUTO_ROLLBACK).map(String::strip);
    return annotation.map(a -> !a.equalsIgnoreCase("false")).orElse(enabled);
  }

  /**
   * The release to run: {@code desired}, or while its key is quarantined the release of the version put back.
   * Lifts the quarantine when the spec wants another key, when asked to try again, or when it no longer applies.
   *
   * @param desiredKey the content key the spec asks for, whether or not its image exists yet; for a buildless
   *     Function its release's key, which is the one a quarantine names
   * @param release the release of a history entry, image or buildless ({@link BuildlessSources#pinned})
   */
  Optional<Release> hold(Function fn, Optional<ContentKey> desiredKey, Optional<Release> desired, FunctionState pass,
      java.util.function.Function<FunctionHistoryEntry, Release> release) {
    AutoRollback quarantine = pass.status().getRollback();
    if (quarantine == null) {
      return desired;
    }
    Optional<FunctionHistoryEntry> restored = history(pass).stream()
        .filter(e -> Objects.equals(e.getContentKey(), quarantine.getRestoredContentKey())
            && e.getRolledOut() != null).findFirst();
    boolean sameKey = desiredKey.map(k -> k.value().equals(quarantine.getFailedContentKey())).orElse(false);
    boolean retry = !Objects.equals(Annotations.get(fn, Annotations.REQUESTED_AT).orElse(null),
        quarantine.getHandledRequestedAt());
    if (!appliesTo(fn) || !sameKey || retry || restored.isEmpty()) {
      pass.status().setRollback(null);
      return desired;
    }
    pass.revision(restored.get().getRevision());
    return Optional.of(release.apply(restored.get()));
  }

  /**
   * After the rollout was reported: quarantines {@code release}'s key when Running says its rollout failed and an
   * earlier version rolled out, so that the next pass, asked for at once, puts that one back.
   */
  void check(Function fn, Release release, FunctionState pass) {
    Optional<Condition> running = pass.draft().condition(RUNNING);
    if (running.isEmpty() || !"False".equals(running.get().getStatus())
        || !FAILURES.contains(running.get().getReason())) {
      return;
    }
    Optional<FunctionHistoryEntry> lastGood = history(pass).stream()
        .filter(e -> e.getRolledOut() != null && !release.key().value().equals(e.getContentKey()))
        .findFirst();
    if (lastGood.isEmpty()) {
      return; // nothing ran before: Running says why this one does not
    }
    AutoRollback quarantine = new AutoRollback();
    quarantine.setFailedContentKey(release.key().value());
    quarantine.setFailedRevision(pass.revisionOf(release.key()));
    quarantine.setReason(running.get().getReason());
    quarantine.setMessage(running.get().getMessage());
    quarantine.setRestoredContentKey(lastGood.get().getContentKey());
    quarantine.setRestoredRevision(lastGood.get().getRevision());
    quarantine.setTime(clock.instant().toString());
    quarantine.setHandledRequestedAt(Annotations.get(fn, Annotations.REQUESTED_AT).orElse(null));
    pass.status().setRollback(quarantine);
    pass.requeueWithin(Requeue.ROLL_BACK_NOW);
    Counter.builder("gitfn.rollbacks").description("Automatic rollbacks of a version that failed to roll out, by"
        + " reason").tag("reason", running.get().getReason()).register(meters).increment();
    log.info("rolling back Function {}/{}: content key {} of {} failed ({}); {} of {} runs again",
        fn.getMetadata().getNamespace(), fn.getMetadata().getName(), release.key().tag(),
        quarantine.getFailedRevision(), quarantine.getReason(), new ContentKey(lastGood.get().getContentKey()).tag(),
        lastGood.get().getRevision());
  }

  /** While a rollback holds: Running says so, and why, instead of what the Deployment alone would say. */
  static void report(Function fn, AutoRollback quarantine, boolean rolledOut, FunctionState pass) {
    String failed = "the version of revision " + quarantine.getFailedRevision() + " (content key "
        + new ContentKey(quarantine.getFailedContentKey()).tag() + ") failed to roll out: "
        + quarantine.getReason() + ": " + quarantine.getMessage();
    String restored = "revision " + quarantine.getRestoredRevision() + " (content key "
        + new ContentKey(quarantine.getRestoredContentKey()).tag() + ")";
    if (rolledOut) {
      pass.condition(RUNNING, "False", ROLLED_BACK, "rolled back to " + restored + ", the last version that ran, with"
          + " no build: " + failed + ". It is not tried again until the spec moves to another version, or `gitfn"
          + " reconcile function " + fn.getMetadata().getName() + "` asks");
    } else {
      pass.condition(RUNNING, "Unknown", DEPLOYMENT_WAITING, "rolling back to " + restored + ": " + failed);
    }
  }

  private static List<FunctionHistoryEntry> history(FunctionState pass) {
    return pass.status().getHistory() == null ? List.of() : pass.status().getHistory();
  }
}
