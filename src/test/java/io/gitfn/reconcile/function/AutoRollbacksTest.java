package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.build.ContentKey;
import io.gitfn.reconcile.function.Rollout.Release;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a new version fails to roll out, the last one that rolled out runs again and the failed key waits: until
 * the spec moves on, or a person asks to try it again.
 */
class AutoRollbacksTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T03:00:00Z"), ZoneOffset.UTC);
  private static final ContentKey GOOD = new ContentKey("a".repeat(64));
  private static final ContentKey BAD = new ContentKey("b".repeat(64));
  private static final ContentKey FIX = new ContentKey("c".repeat(64));
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final AutoRollbacks rollbacks = new AutoRollbacks(true, CLOCK, meters);

  @Test
  void aRolloutPastItsDeadlineQuarantinesItsKeyAndNamesTheLastVersionThatRan() {
    Function fn = function();
    FunctionState pass = pass(fn);
    pass.condition("Running", "False", "DeploymentFailed", "Deployment hello has not rolled out within 600 s");

    rollbacks.check(fn, new Release(BAD, "img:b"), pass);

    AutoRollback quarantine = pass.status().getRollback();
    assertThat(quarantine.getFailedContentKey()).isEqualTo(BAD.value());
    assertThat(quarantine.getFailedRevision()).isEqualTo("main@sha1:bad");
    assertThat(quarantine.getReason()).isEqualTo("DeploymentFailed");
    assertThat(quarantine.getRestoredContentKey()).isEqualTo(GOOD.value());
    assertThat(quarantine.getRestoredRevision()).isEqualTo("main@sha1:good");
    assertThat(quarantine.getTime()).isEqualTo("2026-11-26T03:00:00Z");
    assertThat(meters.counter("gitfn.rollbacks", "reason", "DeploymentFailed").count()).isEqualTo(1);
  }

  @Test
  void nothingRollsBackWhileTheRolloutRunsOrWhenNoEarlierVersionRan() {
    Function fn = function();
    FunctionState waiting = pass(fn);
    waiting.condition("Running", "Unknown", "DeploymentWaiting", "rolling out");
    rollbacks.check(fn, new Release(BAD, "img:b"), waiting);
    assertThat(waiting.status().getRollback()).isNull();

    Function first = function();
    first.getStatus().getHistory().get(1).setRolledOut(null);
    FunctionState failing = pass(first);
    failing.condition("Running", "False", "CrashLooping", "keeps crashing");
    rollbacks.check(first, new Release(BAD, "img:b"), failing);
    assertThat(failing.status().getRollback()).as("no version ran before").isNull();
  }

  @Test
  void whileQuarantinedTheLastGoodVersionIsReleasedAndRunningSaysWhy() {
    Function fn = quarantined(function());
    FunctionState pass = pass(fn);

    Optional<Release> release = rollbacks.hold(fn, Optional.of(BAD), Optional.of(new Release(BAD, "img:b")), pass,
        entry -> new Release(new ContentKey(entry.getContentKey()), entry.getImage()));
    AutoRollbacks.report(fn, pass.status().getRollback(), true, pass);

    assertThat(release).contains(new Release(GOOD, "img:a"));
    assertThat(pass.draft().condition("Running")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("RolledBack");
      assertThat(c.getMessage()).startsWith("rolled back to revision main@sha1:good (content key "
          + "a".repeat(32) + "), the last version that ran, with no build: the version of revision"
          + " main@sha1:bad").contains("failed to roll out: DeploymentFailed");
    });
  }

  @Test
  void theQuarantineLiftsWhenTheSpecMovesOnOrARetryIsRequestedOrTheFunctionOptsOut() {
    Optional<Release> fix = Optional.of(new Release(FIX, "img:c"));
    Function moved = quarantined(function());
    FunctionState movedPass = pass(moved);
    assertThat(rollbacks.hold(moved, Optional.of(FIX), fix, movedPass, e -> null)).isEqualTo(fix);
    assertThat(movedPass.status().getRollback()).isNull();

    Function retried = quarantined(function());
    retried.getMetadata().getAnnotations().put(Annotations.REQUESTED_AT, "2026-11-26T04:00:00Z");
    FunctionState retriedPass = pass(retried);
    Optional<Release> bad = Optional.of(new Release(BAD, "img:b"));
    assertThat(rollbacks.hold(retried, Optional.of(BAD), bad, retriedPass, e -> null)).isEqualTo(bad);
    assertThat(retriedPass.status().getRollback()).isNull();

    Function optedOut = quarantined(function());
    optedOut.getMetadata().getAnnotations().put(Annotations.AUTO_ROLLBACK, "false");
    assertThat(rollbacks.appliesTo(optedOut)).isFalse();
    assertThat(rollbacks.hold(optedOut, Optional.of(BAD), bad, pass(optedOut), e -> null)).isEqualTo(bad);
  }

  @Test
  void theControllerSettingIsTheDefaultAndTheAnnotationWins() {
    AutoRollbacks off = new AutoRollbacks(false, CLOCK, meters);
    Function fn = function();
    assertThat(off.appliesTo(fn)).isFalse();
    fn.getMetadata().getAnnotations().put(Annotations.AUTO_ROLLBACK, "true");
    assertThat(off.appliesTo(fn)).isTrue();
  }

  @Test
  void aVersionIsMarkedRolledOutOnceOnItsNewestEntry() {
    Function fn = function();
    FunctionState pass = pass(fn);
    pass.markRolledOut(BAD);
    assertThat(pass.status().getHistory().get(0).getRolledOut()).isEqualTo("2026-11-26T03:00:00Z");
    String earlier = pass.status().getHistory().get(1).getRolledOut();
    pass.markRolledOut(GOOD);
    assertThat(pass.status().getHistory().get(1).getRolledOut()).isEqualTo(earlier);
  }

  private static Function quarantined(Function fn) {
    AutoRollback quarantine = new AutoRollback();
    quarantine.setFailedContentKey(BAD.value());
    quarantine.setFailedRevision("main@sha1:bad");
    quarantine.setReason("DeploymentFailed");
    quarantine.setMessage("past its deadline");
    quarantine.setRestoredContentKey(GOOD.value());
    quarantine.setRestoredRevision("main@sha1:good");
    quarantine.setTime("2026-11-26T03:00:00Z");
    fn.getStatus().setRollback(quarantine);
    return fn;
  }

  /** hello, whose history has the bad key built (newest) and the good one built and rolled out. */
  private static Function function() {
    Function fn = new Function();
    fn.getMetadata().setName("hello");
    fn.getMetadata().setNamespace("shop");
    fn.getMetadata().setGeneration(2L);
    fn.getMetadata().setAnnotations(new HashMap<>());
    fn.setSpec(new FunctionSpec());
    FunctionStatus status = new FunctionStatus();
    status.setHistory(new ArrayList<>(List.of(entry(BAD, "img:b", "main@sha1:bad", null),
        entry(GOOD, "img:a", "main@sha1:good", "2026-11-25T00:00:00Z"))));
    fn.setStatus(status);
    return fn;
  }

  private static FunctionHistoryEntry entry(ContentKey key, String image, String revision, String rolledOut) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setContentKey(key.value());
    entry.setImage(image);
    entry.setRevision(revision);
    entry.setOutcome("Succeeded");
    entry.setRolledOut(rolledOut);
    return entry;
  }

  private static FunctionState pass(Function fn) {
    return new FunctionState(fn, null, java.util.List.of(), CLOCK, new KubernetesSerialization());
  }
}
