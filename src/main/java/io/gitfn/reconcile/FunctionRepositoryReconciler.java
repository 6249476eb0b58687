package io.gitfn.reconcile;

import static io.gitfn.api.repository.RepositoryConditionReason.APPLY_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.APPLY_REFUSED;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_REVISION;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SPEC;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_READ_FAILED;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.Conditions;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.CommitStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.Notification;
import io.gitfn.api.repository.RepositoryConditionType;
import io.gitfn.api.repository.RepositoryReference;
import io.gitfn.events.EventRecorder;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.reconcile.sync.SyncFailedException;
import io.gitfn.reconcile.sync.SyncRefusedException;
import io.gitfn.reconcile.sync.SyncRequest;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.Snapshot;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.SourceWatcher;
import io.gitfn.trigger.TrackedSource;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Keeps a namespace's Functions equal to what a FunctionRepository's folder in Git declares.
 *
 * <p>A pass runs three steps, each named for what it brings into line: {@link #reconcileSource} (the watcher tracks
 * the spec's URL, ref and credentials), {@link #reconcileRequest} (a manual request is answered by a fresh check),
 * and, unless suspended, {@link #reconcileRevision} (the newest revision is read, validated whole and synced with
 * server-side apply). {@link RepositoryPass} turns what the steps found into status and one Event at the end.
 *
 * <p>Git is checked every interval by the watcher, which wakes the repository when the revision moves. A Function
 * whose spec is edited by hand, or that is deleted, wakes it through the {@link FunctionProgressBoard} and is set
 * back at once. The full pass also repeats every interval, but at most once in {@link #RESYNC}: it sets back what no
 * watch shows (a Function's labels or annotations) and reads Secrets again. Between full passes a pass only reports
 * progress, so a thousand repositories at rest cost their Git checks and little else.
 */
public final class FunctionRepositoryReconciler implements Reconciler<FunctionRepository>, Cleaner<FunctionRepository> {

  static final String KIND = "FunctionRepository";
  private static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
  private static final Duration MAX_INTERVAL = Duration.ofHours(24);
  /** The shortest time between two full passes of a repository whose revision, spec and Functions stand still. */
  static final Duration RESYNC = Duration.ofMinutes(10);
  // Look again soon: the check a request asked for may find nothing new, and then sends no event.
  private static final Duration REQUEST_PENDING = Duration.ofMillis(500);
  // A condition message must stay far below the object size limit, however broken the revision is.
  private static final int ERRORS_SHOWN = 20;

  private final KubernetesClient client;
  private final MirrorCache mirrors;
  private final ManifestReader manifests;
  private final FunctionSync sync;
  private final ControllerSettings settings;
  private final Clock clock;
  private final EventRecorder events;
  private final SourceBinding sources;
  private final ForgeReports forge;
  /**
   * Whether each repository's last pass left it Ready, for the generation it saw: a dependent woken by that pass
   * reads it here, as the status write may not have reached the cache yet.
   */
  private final Map<ResourceID, Readiness> readiness = new ConcurrentHashMap<>();

  private record Readiness(Long generation, boolean ready) {}

  /**
   * What each repository's last full pass applied. A later pass reports its Functions' progress from it without a
   * Secret read, a Git read, a list or an apply, as long as nothing the repository applies has changed since and the
   * resync period has not passed: thousands of Functions rolling out would otherwise each re-sync their repository
   * at every step they take, and at every rollout check, and every repository at rest at every interval.
   *
   * @param functions {@code namespace/name} of each Function applied, and its generation after the apply
   */
  private record Applied(String revision, Long generation, Map<String, String> labels, Instant at,
      Map<String, Long> functions) {}

  private final Map<ResourceID, Applied> applied = new ConcurrentHashMap<>();
  private volatile IndexerResourceCache<FunctionRepository> cache;
  private final SimpleInboundEventSource<FunctionRepository> gitEvents = new SimpleInboundEventSource<>("git");
  private final FunctionProgressBoard progress = new FunctionProgressBoard(this::wakeOwner);

  FunctionRepositoryReconciler(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors,
      ManifestReader manifests, ControllerSettings settings, Clock clock, ForgeReports forge) {
    this.client = client;
    this.mirrors = mirrors;
    this.manifests = manifests;
    this.sync = new FunctionSync(client);
    this.settings = settings;
    this.clock = clock;
    this.events = new EventRecorder(client, clock, settings.instance());
    this.sources = new SourceBinding(client, watcher, settings, clock,
        id -> gitEvents.propagateEvent(new ResourceID(id.name(), id.namespace())));
    this.forge = forge;
    forge.onAnswer(KIND, gitEvents::propagateEvent);
  }

  @Override
  public List<EventSource<?, FunctionRepository>> prepareEventSources(EventSourceContext<FunctionRepository> context) {
    cache = context.getPrimaryCache();
    return List.of(gitEvents);
  }

  /** Every FunctionRepository in this controller's informer cache; none before the controller started. */
  java.util.Collection<FunctionRepository> cached() {
    IndexerResourceCache<FunctionRepository> current = cache;
    return current == null ? List.of() : current.list().toList();
  }

  @Override
  public UpdateControl<FunctionRepository> reconcile(FunctionRepository repository, Context<FunctionRepository> context) {
    ResourceID id = ResourceID.fromResource(repository);
    boolean wasRunning = runs(repository, readiness.get(id));
    Optional<UpdateControl<FunctionRepository>> progressed = progressPass(repository, id, wasRunning, context);
    if (progressed.isPresent()) {
      return progressed.get();
    }
    applied.remove(id); // a full pass: only an apply in it makes the next progress-only pass possible
    RepositoryPass pass = new RepositoryPass(repository, clock, client.getKubernetesSerialization());
    Duration interval = interval(repository.getSpec());
    try {
      TrackedSource source = reconcileSource(repository, interval);
      SourceState state = sources.state(source.id());
      if (state.revision().isEmpty() && state.error().isEmpty() && repository.getStatus() != null
          && repository.getStatus().getLastFetchedRevision() != null) {
        // A restarted controller: the watcher's first check of a source fetched before is under way, and its answer
        // wakes this repository. Until then the status stands as the last pass left it, so a restart writes nothing.
        return UpdateControl.<FunctionRepository>noUpdate().rescheduleAfter(interval);
      }
      reconcileRequest(repository, pass);
      pass.reportGit(state);
      if (state.revision().isEmpty()) {
        pass.waiting(state.error().orElse("fetching " + source.url() + " for the first time"));
      } else if (Boolean.TRUE.equals(repository.getSpec().getSuspend())) {
        pass.suspended(state.revision().get());
      } else if (reconcileDependencies(repository, state.revision().get(), context, pass)) {
        reconcileRevision(repository, source, state.revision().get(), pass);
      }
      // Git failing now (a deleted branch, revoked credentials) outranks an apply of the last good revision.
      state.error().ifPresent(pass::sourceFailing);
    } catch (InvalidSourceException e) {
      pass.stalled(e.reason(), e.getMessage());
    }
    // An apply makes the passes until the next full one progress-only; anything else is looked at again in an interval.
    return finish(repository, pass, applied.containsKey(id) ? resync(interval) : interval, wasRunning, context);
  }

  private UpdateControl<FunctionRepository> finish(FunctionRepository repository, RepositoryPass pass,
      Duration next, boolean wasRunning, Context<FunctionRepository> context) {
    reconcileCommitStatus(repository, pass);
    UpdateControl<FunctionRepository> control = pass.finish(events, next);
    readiness.put(ResourceID.fromResource(repository),
        new Readiness(repository.getMetadata().getGeneration(), pass.ready()));
    if (pass.ready() && !wasRunning) {
      wakeDependents(repository, context);
    }
    return control;
  }

  /**
   * A pass that only reports progress: when the last full pass applied the revision Git still names, for this
   * generation and these labels, less than {@link #resync} ago, with no request or Git failure since, and the board
   * knows every Function at the generation that pass left, the Functions' progress comes from the board and nothing
   * else is read. Empty when any of that does not hold: then the pass is a full one. So a new revision, a spec or
   * label change, a request, a Function edited or deleted by hand, and the periodic re-sync (which sets back edited
   * labels and annotations, and reads rotated Secrets) all run in full.
   */
  private Optional<UpdateControl<FunctionRepository>> progressPass(FunctionRepository repository, ResourceID id,
      boolean wasRunning, Context<FunctionRepository> context) {
    Applied last = applied.get(id);
    FunctionRepositoryStatus status = repository.getStatus();
    Duration interval = interval(repository.getSpec());
    SourceState state = sources.state(idOf(repository));
    Instant now = clock.instant();
    Optional<String> requested = Annotations.get(repository, Annotations.REQUESTED_AT);
    if (last == null || status == null || Boolean.TRUE.equals(repository.getSpec().getSuspend())
        || !Objects.equals(last.generation(), repository.getMetadata().getGeneration())
        || !Objects.equals(last.labels(), labels(repository))
        || !last.revision().equals(status.getLastAppliedRevision())
        || !state.revision().map(Revision::toString).equals(Optional.of(last.revision()))
        || state.error().isPresent()
        || requested.filter(r -> !r.equals(status.getLastHandledRequestedAt())).isPresent()
        || !now.isBefore(last.at().plus(resync(interval)))) {
      return Optional.empty();
    }
    List<FunctionProgress> functions = new ArrayList<>();
    for (Map.Entry<String, Long> fn : last.functions().entrySet()) {
      int slash = fn.getKey().indexOf('/');
      // Another generation than the applied one is an edit by someone else: the full pass sets it back.
      Optional<FunctionProgress> known = progress.known(fn.getKey().substring(0, slash),
          fn.getKey().substring(slash + 1)).filter(p -> p.generation() == fn.getValue());
      if (known.isEmpty()) {
        return Optional.empty();
      }
      functions.add(known.get());
    }
    RepositoryPass pass = new RepositoryPass(repository, clock, client.getKubernetesSerialization());
    pass.reportGit(state);
    pass.progressed(state.revision().get(), functions);
    // The next full pass keeps its beat: progress does not put it off.
    return Optional.of(finish(repository, pass, Duration.between(now, last.at().plus(resync(interval))), wasRunning,
        context));
  }

  private static Map<String, String> labels(FunctionRepository repository) {
    return repository.getMetadata().getLabels() == null ? Map.of() : Map.copyOf(repository.getMetadata().getLabels());
  }

  /** Makes sure the watcher tracks this repository's URL, ref and credentials. Stalls on a bad spec or Secret. */
  private TrackedSource reconcileSource(FunctionRepository repository, Duration interval)
      throws InvalidSourceException {
    FunctionRepositorySpec spec = repository.getSpec();
    String namespace = repository.getMetadata().getNamespace();
    RepositoryUrl url = sources.url("spec.url", spec.getUrl());
    GitCredentials credentials = new GitCredentials.None();
    if (spec.getSecretRef() != null) {
      String name = spec.getSecretRef().getName();
      Map<String, String> data = sources.secret(namespace, name, "spec.secretRef");
      credentials = sources.credentials(data.containsKey("key") ? "key" : "basic", data, "spec.secretRef " + name);
    }
    Optional<String> webhookSecret = Optional.empty();
    if (spec.getWebhook() != null && spec.getWebhook().getSecretRef() != null) {
      String name = spec.getWebhook().getSecretRef().getName();
      String token = sources.secret(namespace, name, "spec.webhook.secretRef").get("token");
      if (token == null || token.isBlank()) {
        throw new InvalidSourceException(INVALID_SECRET, "spec.webhook.secretRef " + name + " has no key `token`");
      }
      webhookSecret = Optional.of(token);
    }
    RefSelector ref = SourceBinding.ref("spec.ref", () -> RefSelector.of(spec.getRef()));
    return sources.track(new TrackedSource(idOf(repository), url, credentials, ref, interval, webhookSecret));
  }

  /**
   * Checks Git at once when {@code gitfn.io/requested-at} holds a value not yet acted on. The value counts as
   * handled only in a pass that saw a check which started after the request, so that
   * {@code status.lastHandledRequestedAt} means "Git was checked and its answer applied" ({@code gitfn reconcile
   * --wait} waits for exactly that).
   */
  private void reconcileRequest(FunctionRepository repository, RepositoryPass pass) {
    SourceId id = idOf(repository);
    Optional<String> requested = Annotations.get(repository, Annotations.REQUESTED_AT);
    if (requested.isEmpty() || requested.get().equals(pass.status().getLastHandledRequestedAt())) {
      sources.handled(id);
    } else if (sources.request(id, requested.get())) {
      pass.status().setLastHandledRequestedAt(requested.get());
      sources.handled(id);
    } else {
      pass.retryWithin(REQUEST_PENDING);
    }
  }

  /** Reads, validates and applies one revision; nothing of an invalid revision is applied. */
  private void reconcileRevision(FunctionRepository repository, TrackedSource source, Revision revision,
      RepositoryPass pass) {
    FunctionRepositorySpec spec = repository.getSpec();
    pass.status().setLastAttemptedRevision(revision.toString());
    Manifest manifest;
    try {
      Snapshot snapshot = mirrors.read(source.url(), source.credentials(), revision);
      pass.commit(snapshot.summary());
      manifest = manifests.read(snapshot, spec.getPath() == null ? "." : spec.getPath(), ignoreLines(spec));
    } catch (InvalidManifestException e) {
      pass.failed(revision, INVALID_REVISION, "revision " + revision + " is invalid; nothing from it was applied, "
          + Optional.ofNullable(pass.status().getLastAppliedRevision()).map(r -> r + " stays")
              .orElse("nothing applied yet") + ":\n" + firstErrors(e.errors()));
      return;
    } catch (SourceException | IOException e) {
      pass.failed(revision, e, SOURCE_READ_FAILED, Failure.stalls(e)
          ? "cannot read " + revision + ": " + Failure.message(e)
          : "reading " + revision + " failed and will be retried: " + Failure.message(e));
      return;
    }
    SyncResult result;
    try {
      List<Function> desired = settings.shard().label(manifest.functions(), repository.getMetadata().getLabels());
      if (Boolean.FALSE.equals(spec.getAutoRollback())) {
        for (Function fn : desired) {
          Map<String, String> annotations = new java.util.TreeMap<>();
          if (fn.getMetadata().getAnnotations() != null) {
            annotations.putAll(fn.getMetadata().getAnnotations());
          }
          annotations.put(Annotations.AUTO_ROLLBACK, "false");
          fn.getMetadata().setAnnotations(annotations);
        }
      }
      result = sync.apply(new SyncRequest(repository.getMetadata().getNamespace(), repository.getMetadata().getName(),
          revision, desired, spec.getPrune() == null || spec.getPrune(), Boolean.TRUE.equals(spec.getAllowEmpty()),
          settings.allowedTargetNamespaces()));
    } catch (SyncRefusedException e) {
      pass.failed(revision, APPLY_REFUSED, "revision " + revision + " was not applied: " + String.join("; ", e.reasons()));
      return;
    } catch (SyncFailedException e) {
      pass.retrying(APPLY_FAILED, "applying " + revision + " failed and will be retried: " + e.getMessage());
      return;
    }
    List<Function> functions = result.functions().stream()
        .map(f -> client.getKubernetesSerialization().convertValue(f, Function.class)).toList();
    pass.applied(revision, manifest.functions(), result, functions.stream()
        .map(f -> progress.newest(FunctionProgress.of(f))).toList());
    Map<String, Long> generations = new java.util.TreeMap<>();
    functions.forEach(f -> generations.put(f.getMetadata().getNamespace() + "/" + f.getMetadata().getName(),
        Objects.requireNonNullElse(f.getMetadata().getGeneration(), 0L)));
    applied.put(ResourceID.fromResource(repository), new Applied(revision.toString(),
        repository.getMetadata().getGeneration(), labels(repository), clock.instant(), generations));
  }

  /**
   * Guarantees that every FunctionRepository in {@code spec.dependsOn} runs its revision (is Ready) before this one
   * applies anything; read from the controller's cache of FunctionRepositories, so it costs no call. Stalls on a
   * repository that depends on itself.
   */
  private boolean reconcileDependencies(FunctionRepository repository, Revision revision,
      Context<FunctionRepository> context, RepositoryPass pass) throws InvalidSourceException {
    List<RepositoryReference> dependencies = repository.getSpec().getDependsOn();
    if (dependencies == null || dependencies.isEmpty()) {
      return true;
    }
    String namespace = repository.getMetadata().getNamespace();
    List<String> waiting = new ArrayList<>();
    for (RepositoryReference dependency : dependencies) {
      String dependencyNamespace = dependency.getNamespace() == null ? namespace : dependency.getNamespace();
      if (dependencyNamespace.equals(namespace) && dependency.getName().equals(repository.getMetadata().getName())) {
        throw new InvalidSourceException(INVALID_SPEC, "spec.dependsOn names this FunctionRepository itself");
      }
      String who = dependencyNamespace + "/" + dependency.getName();
      Optional<FunctionRepository> found = context.getPrimaryCache()
          .get(new ResourceID(dependency.getName(), dependencyNamespace));
      if (found.isEmpty()) {
        waiting.add(who + " does not exist" + (settings.shard().isAll() ? "" : " in this controller's shard"));
      } else if (!runs(found.get(), readiness.get(ResourceID.fromResource(found.get())))) {
        waiting.add(who + " is not Ready: " + Optional.ofNullable(found.get().getStatus())
            .map(s -> Conditions.find(s.getConditions(), RepositoryConditionType.READY)
                .map(c -> c.getReason() + ": " + c.getMessage()).orElse("no status yet"))
            .orElse("no status yet"));
      }
    }
    if (waiting.isEmpty()) {
      return true;
    }
    pass.waitingForDependency(revision, "waiting for " + waiting.size() + " of " + dependencies.size()
        + " dependencies to run their revision before applying anything; " + String.join("; ", waiting));
    return false;
  }

  /**
   * Ready True for the current spec: its revision runs, or it is suspended with what it ran. The last pass's word
   * wins over the cached status when it saw the same generation.
   */
  private static boolean runs(FunctionRepository repository, Readiness last) {
    if (last != null && Objects.equals(last.generation(), repository.getMetadata().getGeneration())) {
      return last.ready();
    }
    FunctionRepositoryStatus status = repository.getStatus();
    return status != null && Conditions.isTrue(status.getConditions(), RepositoryConditionType.READY)
        && Objects.equals(status.getObservedGeneration(), repository.getMetadata().getGeneration());
  }

  /** Where the Function reconciler reports its passes; a move of a Function of this repository wakes it. */
  FunctionProgressBoard progressBoard() {
    return progress;
  }

  /** Wakes the repository whose {@code gitfn.io/repository} label value is {@code owner}: a Function of it moved. */
  private void wakeOwner(String owner) {
    Labels.repositoryOf(owner).ifPresent(r -> gitEvents.propagateEvent(new ResourceID(r.name(), r.namespace())));
  }

  /** Wakes the repositories whose {@code spec.dependsOn} names {@code repository}, which now runs its revision. */
  private void wakeDependents(FunctionRepository repository, Context<FunctionRepository> context) {
    String namespace = repository.getMetadata().getNamespace();
    String name = repository.getMetadata().getName();
    context.getPrimaryCache().list().filter(r -> r.getSpec() != null && r.getSpec().getDependsOn() != null
        && r.getSpec().getDependsOn().stream().anyMatch(d -> name.equals(d.getName())
            && namespace.equals(d.getNamespace() == null ? r.getMetadata().getNamespace() : d.getNamespace())))
        .forEach(r -> gitEvents.propagateEvent(ResourceID.fromResource(r)));
  }

  /**
   * Tells the forge what this pass found about its revision, when {@code spec.commitStatus} asks, and shows in
   * {@code status.commitStatus} how the forge took the newest. Nothing of it fails the pass.
   */
  private void reconcileCommitStatus(FunctionRepository repository, RepositoryPass pass) {
    CommitStatus spec = repository.getSpec().getCommitStatus();
    Notification notification = repository.getSpec().getNotification();
    String namespace = repository.getMetadata().getNamespace();
    String name = repository.getMetadata().getName();
    if (spec == null) {
      forge.forgetStatus(KIND, namespace, name);
      pass.status().setCommitStatus(null);
    } else {
      ForgeReports.Target target = new ForgeReports.Target(KIND, namespace, name, repository.getSpec().getUrl(),
          spec.getSecretRef().getName(), "spec.commitStatus.secretRef", spec.getForge(), spec.getApiURL());
      forge.report(target, pass.verdict(), pass.status().getCommitStatus())
          .ifPresent(report -> pass.status().setCommitStatus(report));
    }
    if (notification == null) {
      forge.forgetNotification(KIND, namespace, name);
      pass.status().setNotification(null);
    } else {
      ForgeReports.Endpoint endpoint = new ForgeReports.Endpoint(KIND, namespace, name, notification.getUrl(),
          notification.getSecretRef().getName(), "spec.notification.secretRef");
      forge.notification(endpoint, pass.verdict(), pass.status().getNotification())
          .ifPresent(report -> pass.status().setNotification(report));
    }
  }

  /**
   * A deleted repository takes its Functions with it, as a Flux Kustomization with prune does, unless
   * {@code spec.prune} is false: then they stay, unowned. Only Functions with this repository's label go.
   */
  @Override
  public DeleteControl cleanup(FunctionRepository repository, Context<FunctionRepository> context) {
    sources.untrack(idOf(repository));
    forge.forget(KIND, repository.getMetadata().getNamespace(), repository.getMetadata().getName());
    readiness.remove(ResourceID.fromResource(repository));
    applied.remove(ResourceID.fromResource(repository));
    if (!Boolean.FALSE.equals(repository.getSpec().getPrune())) {
      String owner = Labels.repository(repository.getMetadata().getNamespace(), repository.getMetadata().getName());
      client.resources(Function.class).inAnyNamespace().withLabel(Labels.REPOSITORY, owner).delete();
    }
    return DeleteControl.defaultDelete();
  }

  static SourceId idOf(FunctionRepository repository) {
    return new SourceId(KIND, repository.getMetadata().getNamespace(), repository.getMetadata().getName());
  }

  /** The spec's interval, kept within 10 s (the CRD's floor) and 24 h whatever reaches the controller. */
  private static Duration interval(FunctionRepositorySpec spec) {
    Duration interval;
    try {
      interval = GoDuration.parse(spec.getInterval() == null ? "1m" : spec.getInterval());
    } catch (IllegalArgumentException e) {
      interval = Duration.ofMinutes(1);
    }
    if (interval.compareTo(MIN_INTERVAL) < 0) {
      return MIN_INTERVAL;
    }
    return interval.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : interval;
  }

  /** How long a full pass's apply stands, at rest: an interval, but at least {@link #RESYNC}. */
  static Duration resync(Duration interval) {
    return interval.compareTo(RESYNC) > 0 ? interval : RESYNC;
  }

  private static List<String> ignoreLines(FunctionRepositorySpec spec) {
    return spec.getIgnore() == null ? List.of()
        : Arrays.stream(spec.getIgnore().split("\n")).map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  private static String firstErrors(List<ManifestError> errors) {
    int shown = Math.min(errors.size(), ERRORS_SHOWN);
    String text = errors.subList(0, shown).stream().map(ManifestError::toString).collect(Collectors.joining("\n"));
    return shown == errors.size() ? text : text + "\n... and " + (errors.size() - shown) + " more errors";
  }
}
