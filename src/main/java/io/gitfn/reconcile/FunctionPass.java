package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.build.ContentKey;
import io.gitfn.events.EventRecorder;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One reconcile of a Function: what its steps found, turned into status and events at the end. Status is written
 * only when it changed, and each changed condition gets one Event whose reason is the condition's reason.
 */
final class FunctionPass {

  static final String SUCCEEDED = "Succeeded";
  static final String REUSED = "Reused";
  static final String FAILED = "Failed";

  private final Function fn;
  private final StatusPass<Function, FunctionStatus> pass;
  private final Clock clock;
  private final FunctionProgress before;
  private String revision;

  FunctionPass(Function fn, Clock clock, KubernetesSerialization json) {
    this.fn = fn;
    this.before = FunctionProgress.of(fn);
    this.pass = new StatusPass<>(fn, FunctionStatus::new, clock, json);
    this.clock = clock;
  }

  FunctionStatus status() {
    return pass.status();
  }

  void condition(String type, String value, String reason, String message) {
    pass.set(type, value, reason, message);
  }

  /**
   * True when the history records a build of this key, to this image name, that worked: the image exists. The name
   * counts because it changed once (to {@code <namespace>/<name>}): a key built under the old name is built once
   * more, under the new one, instead of running an image the new name does not have.
   */
  boolean knownGood(ContentKey key, String image) {
    return history().stream().anyMatch(e -> key.value().equals(e.getContentKey()) && image.equals(e.getImage())
        && (SUCCEEDED.equals(e.getOutcome()) || REUSED.equals(e.getOutcome())));
  }

  /**
   * Adds a history entry, newest first, unless the newest already says the same about the same key; returns
   * whether it added one.
   */
  boolean record(ContentKey key, String image, String outcome) {
    List<FunctionHistoryEntry> history = new ArrayList<>(history());
    if (!history.isEmpty() && key.value().equals(history.get(0).getContentKey())
        && outcome.equals(history.get(0).getOutcome())) {
      return false;
    }
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision(revision());
    entry.setContentKey(key.value());
    entry.setImage(image);
    entry.setTime(clock.instant().toString());
    entry.setOutcome(outcome);
    history.add(0, entry);
    status().setHistory(new ArrayList<>(
        history.subList(0, Math.min(history.size(), FunctionStatus.HISTORY_LIMIT))));
    return true;
  }

  /** The condition as this pass leaves it so far. */
  Optional<Condition> condition(String type) {
    return pass.condition(type);
  }

  /** Notes, once, that the newest entry of {@code key} rolled out: automatic rollback returns only to such. */
  void markRolledOut(ContentKey key) {
    history().stream().filter(e -> key.value().equals(e.getContentKey())).findFirst()
        .filter(e -> e.getRolledOut() == null)
        .ifPresent(e -> e.setRolledOut(clock.instant().toString()));
  }

  /** The revision of the newest history entry of {@code key}, or the revision this pass works on. */
  String revisionOf(ContentKey key) {
    return history().stream().filter(e -> key.value().equals(e.getContentKey())).findFirst()
        .map(FunctionHistoryEntry::getRevision).orElse(revision());
  }

  /** True when the newest history entry is about this key. */
  boolean newestIs(ContentKey key) {
    List<FunctionHistoryEntry> history = history();
    return !history.isEmpty() && key.value().equals(history.get(0).getContentKey());
  }

  /** The source revision this pass works on, for history entries; by default the sync's revision annotation. */
  void revision(String revision) {
    this.revision = revision;
  }

  /** The history entry of a revision whose image is known good, if there is one; the newest wins. */
  Optional<FunctionHistoryEntry> knownGood(String revision) {
    return history().stream().filter(e -> revision.equals(e.getRevision())
        && (SUCCEEDED.equals(e.getOutcome()) || REUSED.equals(e.getOutcome()))).findFirst();
  }

  void retryWithin(Duration delay) {
    pass.retryWithin(delay);
  }

  /** Writes status if it changed, with one Event per changed condition whose reason is the condition's. */
  UpdateControl<Function> finish(EventRecorder events) {
    status().setRuntime(fn.getSpec().getRuntime());
    for (Condition c : pass.changed()) {
      if ("False".equals(c.getStatus())) {
        events.warning(fn, c.getReason(), c.getMessage());
      } else {
        events.normal(fn, c.getReason(), c.getMessage());
      }
    }
    UpdateControl<Function> control = pass.finish();
    return pass.retry().map(control::rescheduleAfter).orElse(control);
  }

  /** The progress the Function's status showed when this pass began. */
  FunctionProgress progressBefore() {
    return before;
  }

  /** The progress the status this pass is about to write shows, before {@link #finish}. */
  FunctionProgress progressNow() {
    FunctionStatus preview = new FunctionStatus();
    preview.setConditions(pass.conditions());
    preview.setObservedGeneration(fn.getMetadata().getGeneration());
    preview.setPinnedRevision(status().getPinnedRevision());
    return FunctionProgress.of(fn, preview);
  }

  /** The progress the status this pass writes shows; call after {@link #finish}. */
  FunctionProgress progress() {
    return FunctionProgress.of(fn, status());
  }

  private String revision() {
    if (revision != null) {
      return revision;
    }
    return Annotations.get(fn, Annotations.REVISION).orElse("inline");
  }

  private List<FunctionHistoryEntry> history() {
    return status().getHistory() == null ? List.of() : status().getHistory();
  }
}
