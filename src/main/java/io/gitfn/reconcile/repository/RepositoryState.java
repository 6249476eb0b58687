package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_NOT_READY;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.Conditions;
import io.gitfn.api.GoDuration;
import io.gitfn.api.VerificationStatus;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.LastSync;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.PassState;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.repository.RepositoryConditions.Finding;
import io.gitfn.source.CommitSummary;
import io.gitfn.source.Revision;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.TrackedSource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One pass of a FunctionRepository: what the watcher knows of its source, the revision it works on, its Functions'
 * progress, what the pass found (its {@link Finding}, which {@link RepositoryConditions} turns into conditions) and
 * what it tells the forge.
 *
 * <p>Whether the pass may be one that only reports progress ({@link #atRest}) is decided here, from the status and
 * the informer caches alone, so a restarted controller decides as the one before it would have.
 */
public final class RepositoryState extends PassState<FunctionRepository, FunctionRepositoryStatus> {

  static final String KIND = "FunctionRepository";

  private final Duration interval;
  private final Instant now;
  private final boolean wasReady;
  private final boolean atRest;
  private Optional<Instant> confirmedSync;
  private SourceState source;
  private TrackedSource tracked;
  private Revision attempted;
  private CommitSummary commit;
  private List<FunctionProgress> functions;
  private String appliedNote;
  private Finding finding;
  private Verdict verdict;
  private VerificationStatus signature;

  /**
   * @param source what the watcher knows of the repository's source as the pass begins
   * @param cached the Function controller's cache, which a pass at rest reads its Functions' progress from
   * @param confirmedSync when this process last ran a full sync of it that found nothing to change
   *     ({@link ConfirmedSyncs})
   */
  public RepositoryState(FunctionRepository repository, Context<FunctionRepository> context, SourceState source,
      CachedFunctions cached, Optional<Instant> confirmedSync, Clock clock, KubernetesSerialization json) {
    super(repository, context, FunctionRepositoryStatus::new, Set.of(RepositoryConditionType.READY), clock, json);
    this.interval = interval(repository);
    this.now = clock.instant();
    this.source = source;
    this.confirmedSync = confirmedSync;
    this.wasReady = runs(repository);
    this.functions = restingProgress(cached).orElse(null);
    this.atRest = functions != null;
  }

  static SourceId idOf(FunctionRepository repository) {
    return new SourceId(KIND, repository.getMetadata().getNamespace(), repository.getMetadata().getName());
  }

  /** The spec's interval, kept within {@link Requeue#MIN_INTERVAL} and {@link Requeue#MAX_INTERVAL}. */
  static Duration interval(FunctionRepository repository) {
    String interval = repository.getSpec().getInterval();
    try {
      return Requeue.interval(GoDuration.parse(interval == null ? "1m" : interval));
    } catch (IllegalArgumentException e) {
      return Duration.ofMinutes(1);
    }
  }

  /**
   * Ready True for the current spec, as the status shows it: its revision runs, or it is suspended with what it ran.
   * What a dependent waits for.
   */
  static boolean runs(FunctionRepository repository) {
    FunctionRepositoryStatus status = repository.getStatus();
    return status != null && Conditions.isTrue(status.getConditions(), RepositoryConditionType.READY)
        && Objects.equals(status.getObservedGeneration(), repository.getMetadata().getGeneration());
  }

  /** A digest of the repository's labels, which its Functions' shard labels come from. */
  static String labelsDigest(FunctionRepository repository) {
    Map<String, String> labels = new TreeMap<>(Objects.requireNonNullElse(repository.getMetadata().getLabels(),
        Map.of()));
    StringBuilder text = new StringBuilder();
    labels.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /**
   * Whether nothing but the Functions' progress can be new: the last full sync applied the revision Git still names
   * with no failure since, for this generation and these labels, less than {@link Requeue#resync} ago, no request
   * waits, and the Function cache shows each Function of the inventory at the generation that sync left. Then the
   * pass reads no Secret, Git, list or apply. A new revision, a spec or label change, a request, a Function edited
   * or deleted by someone else, and the periodic full sync (which sets back edited labels and annotations, and reads
   * rotated Secrets) are all full passes.
   */
  private Optional<List<FunctionProgress>> restingProgress(CachedFunctions cached) {
    FunctionRepository repository = resource();
    FunctionRepositoryStatus status = repository.getStatus();
    LastSync last = status.getLastSync();
    Optional<String> requested = Annotations.get(repository, Annotations.REQUESTED_AT);
    if (last == null || Boolean.TRUE.equals(repository.getSpec().getSuspend())
        || !Objects.equals(last.getGeneration(), repository.getMetadata().getGeneration())
        || !labelsDigest(repository).equals(last.getLabels())
        || status.getLastAppliedRevision() == null
        || !source.revision().map(Revision::toString).equals(Optional.of(status.getLastAppliedRevision()))
        || source.error().isPresent()
        || requested.filter(r -> !r.equals(status.getLastHandledRequestedAt())).isPresent()
        || !now.isBefore(nextFullSync(last))) {
      return Optional.empty();
    }
    List<FunctionProgress> progress = new ArrayList<>();
    for (InventoryEntry entry : Objects.requireNonNullElse(status.getInventory(), List.<InventoryEntry>of())) {
      Optional<Function> fn = cached.get(entry.getNamespace(), entry.getName());
      // Another generation than the applied one is an edit by someone else: the full pass sets it back.
      if (entry.getGeneration() == null || fn.isEmpty()
          || !entry.getGeneration().equals(fn.get().getMetadata().getGeneration())) {
        return Optional.empty();
      }
      progress.add(FunctionProgress.of(fn.get()));
    }
    return Optional.of(progress);
  }

  /**
   * A resync interval after the last full sync: the one status records, or a later one this process ran that found
   * nothing to change and so wrote nothing.
   */
  private Instant nextFullSync(LastSync last) {
    Optional<Instant> synced = syncTime(last);
    if (synced.isEmpty()) {
      return now; // unreadable: due now
    }
    Instant latest = confirmedSync.filter(synced.get()::isBefore).orElse(synced.get());
    return latest.plus(Requeue.resync(interval));
  }

  /** When the recorded sync ran; empty when there is none or its time does not parse. */
  static Optional<Instant> syncTime(LastSync last) {
    try {
      return Optional.of(Instant.parse(last.getTime()));
    } catch (DateTimeException | NullPointerException e) {
      return Optional.empty();
    }
  }

  /**
   * When the next pass is due when no step asks sooner: at the next full sync after an apply that stands, else an
   * interval later.
   */
  Duration beat() {
    FunctionRepositoryStatus status = status();
    LastSync last = status.getLastSync();
    if (last != null && Objects.equals(last.getGeneration(), resource().getMetadata().getGeneration())
        && source.revision().map(Revision::toString).equals(Optional.ofNullable(status.getLastAppliedRevision()))) {
      Duration left = Duration.between(now, nextFullSync(last));
      return left.isNegative() ? Duration.ZERO : left;
    }
    return interval;
  }

  /**
   * This pass's full sync found nothing to change and wrote nothing: the next one is due a resync interval after
   * it, which {@link #beat()} reads (without this the beat would still read the recorded sync, long due, and look
   * again at once).
   */
  void confirmed(Instant at) {
    confirmedSync = Optional.of(at);
  }

  /** Whether this pass only reports progress: see {@link #restingProgress}. */
  public boolean atRest() {
    return atRest;
  }

  Duration interval() {
    return interval;
  }

  /**
   * What a refusal says of what runs on: "{@code <last applied revision>} keeps running", or "nothing applied yet",
   * in the one phrase every step that refuses a revision uses.
   */
  String whatStays() {
    return Optional.ofNullable(status().getLastAppliedRevision()).map(r -> r + " keeps running")
        .orElse("nothing applied yet");
  }

  Instant now() {
    return now;
  }

  /** Whether the object showed its revision running (or suspended) for this generation when the pass began. */
  boolean wasReady() {
    return wasReady;
  }

  SourceState source() {
    return source;
  }

  void source(TrackedSource tracked, SourceState state) {
    this.tracked = tracked;
    this.source = state;
  }

  TrackedSource tracked() {
    return tracked;
  }

  /**
   * The revision Git holds, which the steps after the source's act on.
   *
   * @throws StepFailure.Waiting while the first check of Git runs, or failed: the watcher retries it and wakes the
   *     repository when it answers
   */
  Revision fetched() throws StepFailure.Waiting {
    if (source.revision().isPresent()) {
      return source.revision().get();
    }
    if (source.error().isPresent()) {
      throw StepFailure.waitingOnFailure(SOURCE_FAILED, "Git check failed; keeping "
          + Objects.requireNonNullElse(status().getLastAppliedRevision(), "nothing") + ": " + source.error().get(),
          Requeue.FIRST_FETCH);
    }
    throw StepFailure.waiting(SOURCE_NOT_READY, "fetching " + (tracked == null ? resource().getSpec().getUrl()
        : tracked.url()) + " for the first time", Requeue.FIRST_FETCH);
  }

  /** The revision this pass tries to apply, if it got that far; a stall is then that revision's failure. */
  Optional<Revision> attempted() {
    return Optional.ofNullable(attempted);
  }

  void attempted(Revision revision) {
    this.attempted = revision;
  }

  /** The commit of the revision this pass read, for its history entry; unknown when Git could not be read. */
  Optional<CommitSummary> commit() {
    return Optional.ofNullable(commit);
  }

  void commit(CommitSummary commit) {
    this.commit = commit;
  }

  /** The applied revision's Functions' progress: from the apply's answers, or at rest from the cache. */
  Optional<List<FunctionProgress>> functions() {
    return Optional.ofNullable(functions);
  }

  void functions(List<FunctionProgress> progress) {
    this.functions = List.copyOf(progress);
  }

  /** "Applied revision r: N Functions (...)" when this pass changed what is applied; the news of its Event. */
  Optional<String> appliedNote() {
    return Optional.ofNullable(appliedNote);
  }

  void appliedNote(String note) {
    this.appliedNote = note;
  }

  /** What the pass found, the last step's word; none when nothing was found (the status stands as it was). */
  Optional<Finding> finding() {
    return Optional.ofNullable(finding);
  }

  void found(Finding finding) {
    this.finding = finding;
  }

  /** What the pass found about a revision, for the forge, if it got that far. */
  Optional<Verdict> verdict() {
    return Optional.ofNullable(verdict);
  }

  void verdict(Verdict verdict) {
    this.verdict = verdict;
  }

  /** Who signed the revision this pass verified (spec.verify), for its history entry; empty without verification. */
  Optional<VerificationStatus> signature() {
    return Optional.ofNullable(signature);
  }

  void signature(VerificationStatus signature) {
    this.signature = signature;
  }
}
