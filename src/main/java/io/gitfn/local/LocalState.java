package io.gitfn.local;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Labels;
import io.gitfn.api.function.ConditionType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.function.FunctionStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.GitRef;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.api.repository.RevisionProgress;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.dashboard.DashboardServer;
import io.gitfn.source.CommitSummary;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code gitfn up} has done, for the dashboard it serves: the source it follows as one FunctionRepository
 * ({@value #NAMESPACE}/{@value #NAME}), and each Function it runs with the versions it ran. Local mode has no API
 * server, so these are objects of the API's kinds made for the pages alone, in the words the controller uses.
 */
final class LocalState implements DashboardServer.Source {

  static final String NAMESPACE = "local";
  static final String NAME = "up";
  private static final int HISTORY = 10;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** A Function as local mode knows it: what the source declares, and what ran of it. */
  private static final class Tracked {
    Function declared;
    String revision;
    final List<FunctionHistoryEntry> history = new ArrayList<>(); // newest first
    // Each condition keeps the time it last changed, so that an unchanged Function is an unchanged page.
    Condition configured;
    Condition built;
    Condition running;
  }

  private final Clock clock;
  private String url;
  private String ref;
  private String path;
  private final List<SyncRecord> history = new ArrayList<>(); // newest first
  private final Map<String, Tracked> functions = new TreeMap<>(); // namespace/name
  private String fetched;
  private String applied;
  // Reading, an invalid revision or a source that fails; null once a revision is applied, whose Functions decide.
  private Condition ready;
  private Condition judged;

  LocalState(Clock clock) {
    this.clock = clock;
    this.ready = condition(RepositoryConditionType.READY, "Unknown", "Reading", "reading the source");
  }

  /**
   * What is followed.
   *
   * @param ref the branch, tag or commit, or null for a folder
   */
  synchronized void following(String url, String ref, String path) {
    this.url = url;
    this.ref = ref;
    this.path = path;
  }

  /** The source moved to {@code revision}. */
  synchronized void fetched(String revision) {
    fetched = revision;
  }

  /** The Functions of {@code revision} are declared and about to be run; those no longer declared are gone. */
  synchronized void applied(String revision, Optional<CommitSummary> commit, List<Function> declared) {
    int created = 0;
    int updated = 0;
    Map<String, Tracked> before = new LinkedHashMap<>(functions);
    functions.clear();
    for (Function fn : declared) {
      String id = LocalRelease.idOf(fn);
      Tracked tracked = before.getOrDefault(id, new Tracked());
      boolean changed = tracked.declared == null
          || !JSON.asJson(tracked.declared.getSpec()).equals(JSON.asJson(fn.getSpec()));
      if (tracked.declared == null) {
        created++;
      } else if (changed) {
        updated++;
      }
      if (changed) {
        tracked.configured = condition(ConditionType.CONFIGURATION_READY, "True", "Valid", "declared at " + revision);
        tracked.built = condition(ConditionType.BUILD_READY, "True", "InstalledLocally",
            "its dependencies are installed on this machine, with no image");
      }
      if (tracked.running == null) {
        tracked.running = condition(ConditionType.RUNNING, "Unknown", "ProcessStarting", "waiting to start");
      }
      tracked.declared = fn;
      tracked.revision = revision;
      functions.put(id, tracked);
    }
    int deleted = (int) before.keySet().stream().filter(id -> !functions.containsKey(id)).count();
    applied = revision;
    ready = null;
    record(revision, "Applied", commit, created, updated, deleted);
  }

  /** Revision {@code revision} cannot be run; what runs stays. */
  synchronized void invalid(String revision, Optional<CommitSummary> commit, String message) {
    ready = condition(RepositoryConditionType.READY, "False", "InvalidRevision", message);
    record(revision, "Failed", commit, 0, 0, 0);
  }

  /** The source cannot be read now; what runs stays. */
  synchronized void unreadable(String message) {
    ready = unlessSame(ready == null ? judged : ready, condition(RepositoryConditionType.READY, "False",
        "SourceFailed", message));
  }

  /** The Function {@code id} declares cannot be run, and why. */
  synchronized void unrunnable(String id, String message) {
    unrunnable(id, message, false);
  }

  /** What the Function {@code id} declares cannot be run, and why; with {@code stillServing} its last version does. */
  synchronized void unrunnable(String id, String message, boolean stillServing) {
    Optional.ofNullable(functions.get(id)).ifPresent(t -> t.running = condition(ConditionType.RUNNING,
        stillServing ? "True" : "False", "NotRunnable", message));
  }

  /** A new version of the Function starts. */
  synchronized void starting(LocalRelease release) {
    tracked(release).ifPresent(t -> t.running = condition(ConditionType.RUNNING, "Unknown", "ProcessStarting",
        "a process of content key " + release.key().tag() + " starts"));
  }

  /** The Function's new version passed its health check and takes its requests. */
  synchronized void serving(LocalRelease release, String address) {
    tracked(release).ifPresent(t -> {
      // A key that ran before runs from the same installed folder: nothing was installed, as a revert reuses an image.
      boolean ranBefore = t.history.stream().anyMatch(e -> e.getContentKey().equals(release.key().value())
          && e.getRolledOut() != null);
      FunctionHistoryEntry entry = entry(release, t, ranBefore ? "Reused" : "Succeeded");
      entry.setRolledOut(entry.getTime());
      t.running = condition(ConditionType.RUNNING, "True", "ProcessServing", "serves at " + address);
    });
  }

  /** The Function's new version did not start; the one before, if any, serves on. */
  synchronized void failed(LocalRelease release, String message, boolean stillServing) {
    tracked(release).ifPresent(t -> {
      entry(release, t, "Failed");
      t.running = condition(ConditionType.RUNNING, stillServing ? "True" : "False", "ProcessFailed", message);
    });
  }

  private Optional<Tracked> tracked(LocalRelease release) {
    return Optional.ofNullable(functions.get(release.id()));
  }

  private FunctionHistoryEntry entry(LocalRelease release, Tracked tracked, String outcome) {
    FunctionHistoryEntry entry = new FunctionHistoryEntry();
    entry.setRevision(tracked.revision);
    entry.setContentKey(release.key().value());
    entry.setTime(clock.instant().toString());
    entry.setOutcome(outcome);
    tracked.history.add(0, entry);
    if (tracked.history.size() > HISTORY) {
      tracked.history.remove(HISTORY);
    }
    return entry;
  }

  private void record(String revision, String outcome, Optional<CommitSummary> commit, int created, int updated,
      int deleted) {
    SyncRecord record = new SyncRecord();
    record.setRevision(revision);
    record.setTime(clock.instant().toString());
    record.setOutcome(outcome);
    record.setCreated(created);
    record.setUpdated(updated);
    record.setDeleted(deleted);
    commit.ifPresent(c -> {
      record.setMessage(c.subject());
      record.setAuthor(c.author());
      record.setCommitTime(c.time() == null ? null : c.time().toString());
    });
    history.add(0, record);
    if (history.size() > HISTORY) {
      history.remove(HISTORY);
    }
  }

  @Override
  public synchronized Collection<FunctionRepository> repositories() {
    FunctionRepository repository = new FunctionRepository();
    repository.getMetadata().setNamespace(NAMESPACE);
    repository.getMetadata().setName(NAME);
    FunctionRepositorySpec spec = new FunctionRepositorySpec();
    spec.setUrl(url);
    if (ref != null) {
      GitRef gitRef = new GitRef();
      gitRef.setBranch(ref);
      spec.setRef(gitRef);
    }
    spec.setPath(path);
    repository.setSpec(spec);
    FunctionRepositoryStatus status = new FunctionRepositoryStatus();
    status.setLastFetchedRevision(fetched);
    status.setLastAppliedRevision(applied);
    if (ready == null) {
      // Ready as the controller judges it: the applied revision runs once every Function of it serves.
      RevisionProgress progress = RevisionProgress.of(applied, NAMESPACE,
          functions().stream().map(FunctionProgress::of).toList());
      judged = unlessSame(judged, condition(RepositoryConditionType.READY, progress.ready(), progress.reason(),
          progress.message()));
      status.setPending(progress.pending().isEmpty() ? null : progress.pending());
    }
    status.setConditions(List.of(ready == null ? judged : ready));
    status.setHistory(List.copyOf(history));
    repository.setStatus(status);
    return List.of(repository);
  }

  @Override
  public synchronized Collection<Function> functions() {
    List<Function> shown = new ArrayList<>();
    for (Tracked tracked : functions.values()) {
      Function fn = JSON.clone(tracked.declared);
      if (fn.getMetadata().getNamespace() == null) {
        fn.getMetadata().setNamespace("default");
      }
      fn.getMetadata().setGeneration(1L);
      Map<String, String> labels = new TreeMap<>(fn.getMetadata().getLabels() == null ? Map.of()
          : fn.getMetadata().getLabels());
      labels.put(Labels.REPOSITORY, Labels.repository(NAMESPACE, NAME));
      fn.getMetadata().setLabels(labels);
      FunctionStatus status = new FunctionStatus();
      status.setObservedGeneration(1L);
      status.setRuntime(fn.getSpec().getRuntime());
      status.setHistory(List.copyOf(tracked.history));
      status.setConditions(List.of(tracked.configured, tracked.built, tracked.running));
      fn.setStatus(status);
      shown.add(fn);
    }
    return shown;
  }

  @Override
  public Optional<Deployment> deploymentOf(Function fn) {
    return Optional.empty();
  }

  @Override
  public Collection<Job> jobsOf(Function fn) {
    return List.of();
  }

  @Override
  public boolean local() {
    return true;
  }

  /** {@code now}, or {@code before} when it says the same: a condition's time is when it last changed. */
  private static Condition unlessSame(Condition before, Condition now) {
    return before != null && before.getStatus().equals(now.getStatus()) && before.getReason().equals(now.getReason())
        && before.getMessage().equals(now.getMessage()) ? before : now;
  }

  private Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastTransitionTime(clock.instant().toString()).build();
  }
}
