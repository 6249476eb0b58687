package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.reconcile.StatusDraft.Event;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pass writes its status only when it changed, and tells of it in Events by one policy: a reported condition's
 * new status or reason, or a step's news; never a message that only moved.
 */
class StatusDraftTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void aLongConditionMessageIsCutToTheLimitAndSaysHowMuchWasLeftOut() {
    String message = "x".repeat(StatusDraft.MAX_MESSAGE * 10);

    String shortened = StatusDraft.shortened(message);

    assertThat(shortened).hasSize(StatusDraft.MAX_MESSAGE).endsWith(" ... (" + (message.length()
        - StatusDraft.MAX_MESSAGE) + " more characters)");
    assertThat(StatusDraft.shortened("short")).isEqualTo("short");
  }

  @Test
  void aStatusThatSaysWhatItSaidIsNotWritten() {
    StatusDraft<FunctionRepositoryStatus> draft = draft(condition("Ready", "True", "Succeeded", "runs"));

    draft.set("Ready", "True", "Succeeded", "runs");

    assertThat(draft.finish()).isFalse();
    assertThat(draft.events()).isEmpty();
  }

  @Test
  void anotherStatusOrReasonIsAnEventAndAFalseOneAWarning() {
    StatusDraft<FunctionRepositoryStatus> draft = draft(condition("Ready", "True", "Succeeded", "runs"));

    draft.set("Ready", "False", "FunctionsFailed", "hello failed");

    assertThat(draft.finish()).isTrue();
    assertThat(draft.events()).containsExactly(new Event(true, "FunctionsFailed", "hello failed"));
  }

  @Test
  void aMessageThatOnlyMovedIsWrittenButIsNoEvent() {
    StatusDraft<FunctionRepositoryStatus> draft = draft(condition("Ready", "Unknown", "RollingOut", "2 of 3 left"));

    draft.set("Ready", "Unknown", "RollingOut", "1 of 3 left");

    assertThat(draft.finish()).isTrue();
    assertThat(draft.events()).isEmpty();
  }

  @Test
  void aStepsNewsIsAnEventEvenWhenTheReasonStays() {
    StatusDraft<FunctionRepositoryStatus> draft = draft(condition("Ready", "Unknown", "RollingOut", "2 of 3 left"));

    draft.set("Ready", "Unknown", "RollingOut", "3 of 3 left");
    draft.note("Ready", "Applied revision main@sha1:b: 3 Functions (0 created, 3 updated, 0 deleted)");

    assertThat(draft.events()).containsExactly(new Event(false, "RollingOut",
        "Applied revision main@sha1:b: 3 Functions (0 created, 3 updated, 0 deleted)"));
  }

  @Test
  void aStepMaySayThatAnUnknownConditionIsAFailure() {
    StatusDraft<FunctionRepositoryStatus> draft = draft();

    draft.set("Ready", "Unknown", "ReconciliationFailed", "retried with backoff", true);
    draft.set("Stalled", "True", "InvalidSpec", "not reported");

    assertThat(draft.events()).containsExactly(new Event(true, "ReconciliationFailed", "retried with backoff"));
  }

  @Test
  void theTransitionTimeMovesOnlyWithTheStatus() {
    StatusDraft<FunctionRepositoryStatus> draft = draft(condition("Ready", "Unknown", "RollingOut", "a"));

    draft.set("Ready", "Unknown", "RollingOut", "b");

    assertThat(draft.condition("Ready").orElseThrow().getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    draft.set("Ready", "True", "Succeeded", "runs");
    assertThat(draft.condition("Ready").orElseThrow().getLastTransitionTime()).isEqualTo("2026-11-27T12:00:00Z");
  }

  private static StatusDraft<FunctionRepositoryStatus> draft(Condition... conditions) {
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setConditions(new ArrayList<>(List.of(conditions)));
    status.setObservedGeneration(1L);
    return new StatusDraft<>(status, 1L, Set.of("Ready"), CLOCK, new KubernetesSerialization());
  }

  private static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withObservedGeneration(1L).withLastTransitionTime("2026-01-01T00:00:00Z").build();
  }
}
