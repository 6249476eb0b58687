package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionType.BUILD_READY;
import static io.gitfn.api.function.ConditionType.CONFIGURATION_READY;
import static io.gitfn.api.function.ConditionType.RUNNING;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.AutoRollback;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.PassState;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.source.Revision;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One pass of a Function: what its steps hand each other (the build plan, the pin, the release the spec asks for and
 * the one that runs, whether it rolled out) and its history of versions, which lives in its status.
 */
public final class FunctionState extends PassState<Function, FunctionStatus> {

  static final String SUCCEEDED = "Succeeded";
  static final String REUSED = "Reused";
  static final String FAILED = "Failed";

  private final Clock clock;
  private final FunctionProgress before;
  private final Collection<Job> jobs;
  private final Collection<Pod> installPods;
  private Optional<FunctionBuildPlan> plan = Optional.empty();
  private String pin;
  private Optional<Release> desired = Optional.empty();
  private Optional<Release> release = Optional.empty();
  private AutoRollback holding;
  private boolean rolledOut;
  private String revision;
  private Revision attempted;

  public FunctionState(Function fn, Context<Function> context, Collection<Job> jobs, Clock clock,
      KubernetesSerialization json) {
    this(fn, context, jobs, List.of(), clock, json);
  }

  /**
   * @param jobs the Function's install Jobs in the informer cache
   * @param installPods their Pods in the informer cache (metadata and status)
   */
  public FunctionState(Function fn, Context<Function> context, Collection<Job> jobs, Collection<Pod> installPods,
      Clock clock, KubernetesSerialization json) {
    super(fn, context, FunctionStatus::new, Set.of(CONFIGURATION_READY, BUILD_READY, RUNNING), clock, json);
    this.clock = clock;
    this.before = FunctionProgress.of(fn);
    this.jobs = List.copyOf(jobs);
    this.installPods = List.copyOf(installPods);
  }

  Function fn() {
    return resource();
  }

  /** The pass's clock's time. */
  Instant now() {
    return clock.instant();
  }

  Collection<Job> jobs() {
    return jobs;
  }

  Collection<Pod> installPods() {
    return installPods;
  }

  void condition(String type, String value, String reason, String message) {
    draft().set(type, value, reason, message);
  }

  /** What the spec asks to build, when it is valid and its source could be read. */
  Optional<FunctionBuildPlan> plan() {
    return plan;
  }

  void plan(FunctionBuildPlan plan) {
    this.plan = Optional.of(plan);
  }

  /** The revision {@code gitfn.io/pinned-revision} pins the Function to, or null. */
  String pin() {
    return pin;
  }

  void pin(String revision) {
    this.pin = revision;
  }

  /** The release the spec (or the pin) asks for, once its image is known good. */
  Optional<Release> desired() {
    return desired;
  }

  void desired(Optional<Release> release) {
    this.desired = release;
  }

  /** The release handed to the Deployment: the desired one, or while a rollback holds, the one put back. */
  Optional<Release> release() {
    return release;
  }

  void release(Optional<Release> release) {
    this.release = release;
  }

  /**
   * The revision of the Git source this pass worked on, whether it was planned or refused (its signatures, its
   * {@code baseDir}); empty when the pass did not get as far as a revision.
   */
  Optional<Revision> attempted() {
    return Optional.ofNullable(attempted);
  }

  void attempted(Revision revision) {
    this.attempted = revision;
  }

  /** The quarantine of a version that failed to roll out, while it holds; null otherwise. */
  AutoRollback holding() {
    return holding;
  }

  void holding(AutoRollback quarantine) {
    this.holding = quarantine;
  }

  /** Whether the Deployment runs its template on every desired replica. */
  boolean rolledOut() {
    return rolledOut;
  }

  void rolledOut(boolean rolledOut) {
    this.rolledOut = rolledOut;
  }

  /**
   * True when the history records a build of this key, to this image name, that worked: the image exists. The name
   * counts because it changed once (to {@code <namespace>/<name>}): a key built under the old name is built once
   * more, under the new one, instead of running an image the new name does not have.
   */
  boolean knownGood(ContentKey key, String image) {
    return knownGoodEntry(key, image).isPresent();
  }

  /**
   * The newest entry that {@link #knownGood(ContentKey, String)} finds. An image assembled from layers is recorded
   * with its digest ({@code image@sha256:...}), which the release then names.
   */
  Optional<FunctionHistoryEntry> knownGoodEntry(ContentKey key, String image) {
    return history().stream().filter(e -> key.value().equals(e.getContentKey()) && e.getImage() != null
        && (image.equals(e.getImage()) || e.getImage().startsWith(image + "@sha256:"))
        && (SUCCEEDED.equals(e.getOutcome()) || REUSED.equals(e.getOutcome()))).findFirst();
  }

  /** The history entry of a revision whose image is known good, if there is one; the newest wins. */
  Optional<FunctionHistoryEntry> knownGood(String revision) {
    return history().stream().filter(e -> revision.equals(e.getRevision())
        && (SUCCEEDED.equals(e.getOutcome()) || REUSED.equals(e.getOutcome()))).findFirst();
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
    status().setHistory(new ArrayList<>(history.subList(0, Math.min(history.size(), FunctionStatus.HISTORY_LIMIT))));
    return true;
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

  List<FunctionHistoryEntry> history() {
    return status().getHistory() == null ? List.of() : status().getHistory();
  }

  /** The progress the Function's status showed when this pass began. */
  FunctionProgress progressBefore() {
    return before;
  }

  /** The progress the status this pass leaves shows, so far. */
  FunctionProgress progressNow() {
    FunctionStatus preview = new FunctionStatus();
    preview.setConditions(draft().conditions());
    preview.setObservedGeneration(fn().getMetadata().getGeneration());
    preview.setPinnedRevision(status().getPinnedRevision());
    return FunctionProgress.of(fn(), preview);
  }

  private String revision() {
    if (revision != null) {
      return revision;
    }
    return Annotations.get(fn(), Annotations.REVISION).orElse("inline");
  }
}
