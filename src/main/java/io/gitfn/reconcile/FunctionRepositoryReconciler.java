package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Annotations;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.SyncRecord;
import io.gitfn.api.repository.WebhookReceipt;
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
import io.gitfn.source.Mirror;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceEvents;
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
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a namespace's Functions equal to what a FunctionRepository's folder in Git declares.
 *
 * <p>A pass: make sure the source is tracked ({@link #trackSource}), act on a manual request
 * ({@link #honourRequest}), report what Git holds, and unless suspended apply the newest revision
 * ({@link #applyRevision}): read it, validate all of it, and sync it with server-side apply. The pass repeats
 * every interval, which sets back hand edits. Status and events are written at the end, from what the steps
 * found.
 */
public final class FunctionRepositoryReconciler
    implements Reconciler<FunctionRepository>, Cleaner<FunctionRepository>, SourceEvents {

  static final String KIND = "FunctionRepository";
  private static final int HISTORY = 10;
  private static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
  private static final Duration MAX_INTERVAL = Duration.ofHours(24);
  private static final Logger log = LoggerFactory.getLogger(FunctionRepositoryReconciler.class);

  private final KubernetesClient client;
  private final SourceWatcher watcher;
  private final MirrorCache mirrors;
  private final ManifestReader manifests;
  private final FunctionSync sync;
  private final ControllerSettings settings;
  private final Clock clock;
  private final EventRecorder events;
  private final SimpleInboundEventSource<FunctionRepository> gitEvents = new SimpleInboundEventSource<>("git");
  private final Map<SourceId, Request> requests = new java.util.concurrent.ConcurrentHashMap<>();

  public FunctionRepositoryReconciler(KubernetesClient client, SourceWatcher watcher, MirrorCache mirrors,
      ManifestReader manifests, ControllerSettings settings, Clock clock) {
    this.client = client;
    this.watcher = watcher;
    this.mirrors = mirrors;
    this.manifests = manifests;
    this.sync = new FunctionSync(client);
    this.settings = settings;
    this.clock = clock;
    this.events = new EventRecorder(client, clock, settings.instance());
  }

  @Override
  public List<EventSource<?, FunctionRepository>> prepareEventSources(EventSourceContext<FunctionRepository> context) {
    return List.of(gitEvents);
  }

  // SourceEvents: the watcher saw something new for a repository; reconcile it.
  @Override
  public void revision(SourceId source, Revision revision, String cause) {
    wake(source);
  }

  @Override
  public void failed(SourceId source, SourceException error, Duration retryIn) {
    wake(source);
  }

  private void wake(SourceId source) {
    if (source.kind().equals(KIND)) {
      gitEvents.propagateEvent(new ResourceID(source.name(), source.namespace()));
    }
  }

  @Override
  public UpdateControl<FunctionRepository> reconcile(FunctionRepository repository, Context<FunctionRepository> context) {
    Pass pass = new Pass(repository);
    Duration interval = pass.interval();
    try {
      TrackedSource source = trackSource(repository, interval);
      SourceState state = watcher.state(source.id());
      honourRequest(repository, state, pass);
      pass.reportGit(state);
      if (state.revision().isEmpty()) {
        pass.waiting(state.error().orElse("fetching " + source.url() + " for the first time"));
      } else if (Boolean.TRUE.equals(repository.getSpec().getSuspend())) {
        pass.suspended(state.revision().get());
      } else {
        applyRevision(repository, source, state.revision().get(), pass);
      }
      // Git failing now (a deleted branch, revoked credentials) outranks an apply of the last good revision.
      state.error().ifPresent(pass::sourceFailing);
    } catch (InvalidSourceException e) {
      pass.stalled(e.reason, e.getMessage());
    }
    return pass.finish(interval);
  }

  /** Makes sure the watcher tracks this repository's URL, ref and credentials. Stalls on a bad spec or Secret. */
  private TrackedSource trackSource(FunctionRepository repository, Duration interval) throws InvalidSourceException {
    FunctionRepositorySpec spec = repository.getSpec();
    String namespace = repository.getMetadata().getNamespace();
    RepositoryUrl url;
    try {
      url = RepositoryUrl.parse(spec.getUrl());
    } catch (IllegalArgumentException e) {
      throw new InvalidSourceException("InvalidURL", "spec.url: " + e.getMessage());
    }
    GitCredentials credentials = new GitCredentials.None();
    if (spec.getSecretRef() != null) {
      Map<String, String> data = secretData(namespace, spec.getSecretRef().getName(), "spec.secretRef");
      try {
        credentials = GitCredentials.fromSecret(data.containsKey("key") ? "key" : "basic", data, settings.knownHosts());
      } catch (SourceException e) {
        throw new InvalidSourceException("InvalidSecret", "spec.secretRef " + spec.getSecretRef().getName() + ": " + e.getMessage());
      }
    }
    Optional<String> webhookSecret = Optional.empty();
    if (spec.getWebhook() != null && spec.getWebhook().getSecretRef() != null) {
      String name = spec.getWebhook().getSecretRef().getName();
      String token = secretData(namespace, name, "spec.webhook.secretRef").get("token");
      if (token == null || token.isBlank()) {
        throw new InvalidSourceException("InvalidSecret", "spec.webhook.secretRef " + name + " has no key `token`");
      }
      webhookSecret = Optional.of(token);
    }
    TrackedSource source;
    try {
      source = new TrackedSource(idOf(repository), url, credentials, RefSelector.of(spec.getRef()), interval, webhookSecret);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidSourceException("InvalidSpec", "spec.ref: " + e.getMessage());
    }
    watcher.track(source);
    return source;
  }

  /**
   * Checks Git at once when {@code gitfn.io/requested-at} holds a value not yet acted on, as flux reconcile does.
   * The value counts as handled only in a pass that saw a check which started after the request, so that
   * {@code status.lastHandledRequestedAt} means "Git was checked and its answer applied" ({@code gitfn
   * reconcile --wait} waits for exactly that).
   */
  private void honourRequest(FunctionRepository repository, SourceState state, Pass pass) {
    String requested = repository.getMetadata().getAnnotations() == null ? null
        : repository.getMetadata().getAnnotations().get(Annotations.REQUESTED_AT);
    SourceId id = idOf(repository);
    if (requested == null || requested.equals(pass.status.getLastHandledRequestedAt())) {
      requests.remove(id);
      return;
    }
    Request known = requests.get(id);
    Request pending = known != null && known.value().equals(requested) ? known : new Request(requested, clock.instant());
    if (pending != known) {
      requests.put(id, pending);
      watcher.trigger(id, "requested at " + requested);
    }
    if (state.checkedAt().filter(checked -> !checked.isBefore(pending.at())).isPresent()) {
      pass.status.setLastHandledRequestedAt(requested);
      requests.remove(id);
    } else {
      pass.retryWithin(Duration.ofMillis(500)); // look again soon: the check may find nothing new and send no event
    }
  }

  /** A manual request being acted on: its annotation value, and when the check it asked for was requested. */
  private record Request(String value, java.time.Instant at) {}

  /** Reads, validates and applies one revision; nothing of an invalid revision is applied. */
  private void applyRevision(FunctionRepository repository, TrackedSource source, Revision revision, Pass pass) {
    FunctionRepositorySpec spec = repository.getSpec();
    pass.status.setLastAttemptedRevision(revision.toString());
    Manifest manifest;
    try {
      Mirror mirror = mirrors.mirror(source.url(), source.credentials());
      // Cheap when the commit is there; fetches it again when the mirror was evicted since the watcher saw it.
      mirror.ensure(List.of(revision));
      manifest = manifests.read(mirror.snapshot(revision), spec.getPath() == null ? "." : spec.getPath(), ignoreLines(spec));
    } catch (InvalidManifestException e) {
      pass.failed(revision, "InvalidRevision", "revision " + revision + " is invalid; nothing from it was applied, "
          + Optional.ofNullable(pass.status.getLastAppliedRevision()).map(r -> r + " stays").orElse("nothing applied yet")
          + ":\n" + firstErrors(e.errors()));
      return;
    } catch (SourceException e) {
      readFailed(revision, e, pass);
      return;
    } catch (IOException e) {
      if (e.getCause() instanceof SourceException cause) {
        readFailed(revision, cause, pass);
      } else {
        pass.retrying("SourceReadFailed", "reading " + revision + " failed and will be retried: " + e.getMessage());
      }
      return;
    }
    SyncResult result;
    try {
      result = sync.apply(new SyncRequest(repository.getMetadata().getNamespace(), repository.getMetadata().getName(),
          revision, shardLabelled(manifest.functions(), repository), spec.getPrune() == null || spec.getPrune(),
          Boolean.TRUE.equals(spec.getAllowEmpty()), settings.allowedTargetNamespaces()));
    } catch (SyncRefusedException e) {
      pass.failed(revision, "ApplyRefused", "revision " + revision + " was not applied: " + String.join("; ", e.reasons()));
      return;
    } catch (SyncFailedException e) {
      pass.retrying("ApplyFailed", "applying " + revision + " failed and will be retried: " + e.getMessage());
      return;
    }
    pass.applied(revision, manifest.functions(), result);
  }

  /** A read that may work next time (timeout, network) is retried; one that needs a change in Git stalls. */
  private static void readFailed(Revision revision, SourceException e, Pass pass) {
    if (e.recoverable()) {
      pass.retrying("SourceReadFailed", "reading " + revision + " failed and will be retried: " + e.getMessage());
    } else {
      pass.failed(revision, "SourceReadFailed", "cannot read " + revision + ": " + e.getMessage());
    }
  }

  // A condition message must stay far below the object size limit, however broken the revision is.
  private static String firstErrors(List<ManifestError> errors) {
    int shown = Math.min(errors.size(), 20);
    String text = errors.subList(0, shown).stream().map(ManifestError::toString).collect(Collectors.joining("\n"));
    return shown == errors.size() ? text : text + "\n... and " + (errors.size() - shown) + " more errors";
  }

  private Map<String, String> secretData(String namespace, String name, String field) throws InvalidSourceException {
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw new InvalidSourceException("SecretUnreadable", field + ": cannot read Secret " + namespace + "/" + name
          + ": " + (e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage()));
    }
    if (secret == null) {
      throw new InvalidSourceException("SecretNotFound", field + ": Secret " + namespace + "/" + name + " not found");
    }
    try {
      return SecretData.of(secret);
    } catch (IllegalArgumentException e) {
      throw new InvalidSourceException("InvalidSecret", field + ": " + e.getMessage());
    }
  }

  private static List<String> ignoreLines(FunctionRepositorySpec spec) {
    return spec.getIgnore() == null ? List.of()
        : Arrays.stream(spec.getIgnore().split("\n")).map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  static SourceId idOf(FunctionRepository repository) {
    return new SourceId(KIND, repository.getMetadata().getNamespace(), repository.getMetadata().getName());
  }

  /**
   * A deleted repository takes its Functions with it, as a Flux Kustomization with prune does, unless
   * {@code spec.prune} is false: then they stay, unowned. Only Functions with this repository's label go.
   */
  @Override
  public DeleteControl cleanup(FunctionRepository repository, Context<FunctionRepository> context) {
    watcher.untrack(idOf(repository));
    requests.remove(idOf(repository));
    if (!Boolean.FALSE.equals(repository.getSpec().getPrune())) {
      String owner = repository.getMetadata().getNamespace() + "." + repository.getMetadata().getName();
      client.resources(Function.class).inAnyNamespace().withLabel(Labels.REPOSITORY, owner).delete();
    }
    return DeleteControl.defaultDelete();
  }

  /** A spec or Secret problem only a person can fix: the repository stalls until its spec or Secret changes. */
  private static final class InvalidSourceException extends Exception {
    final String reason;

    InvalidSourceException(String reason, String message) {
      super(message);
      this.reason = reason;
    }
  }

  /** One pass's findings, turned into status and events at the end. */
  private final class Pass {
    final FunctionRepository repository;
    final FunctionRepositoryStatus status;
    final List<Condition> conditions;
    final Long generation;
    final String before;
    boolean conditionsChanged;
    String eventType;
    String eventReason;
    String eventMessage;
    Duration retry;

    Pass(FunctionRepository repository) {
      this.repository = repository;
      this.status = repository.getStatus() == null ? new FunctionRepositoryStatus() : repository.getStatus();
      this.conditions = Conditions.copy(status.getConditions());
      this.generation = repository.getMetadata().getGeneration();
      this.before = client.getKubernetesSerialization().asJson(status);
    }

    /** The spec's interval, kept within 10 s (the CRD's floor) and 24 h whatever reaches the controller. */
    Duration interval() {
      Duration interval;
      try {
        interval = GoDuration.parse(repository.getSpec().getInterval() == null ? "1m" : repository.getSpec().getInterval());
      } catch (IllegalArgumentException e) {
        interval = Duration.ofMinutes(1);
      }
      if (interval.compareTo(MIN_INTERVAL) < 0) {
        return MIN_INTERVAL;
      }
      return interval.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : interval;
    }

    void reportGit(SourceState state) {
      state.revision().ifPresent(r -> status.setLastFetchedRevision(r.toString()));
      state.lastDelivery().ifPresent(d -> {
        WebhookReceipt receipt = new WebhookReceipt();
        receipt.setForge(d.forge());
        receipt.setDeliveryId(d.deliveryId());
        receipt.setTime(d.at().toString());
        state.revision().ifPresent(r -> receipt.setRevision(r.toString()));
        status.setLastWebhook(receipt);
      });
    }

    void waiting(String message) {
      set("Ready", "False", "SourceNotReady", message);
      set("Reconciling", "True", "Progressing", message);
      remove("Stalled");
      retryWithin(Duration.ofSeconds(5));
      event("Warning", "SourceNotReady", message);
    }

    void suspended(Revision revision) {
      set("Ready", "True", "Suspended", "suspended; Git holds " + revision + ", nothing is applied until resumed");
      remove("Reconciling");
      remove("Stalled");
    }

    /** The last check of Git failed; what was applied stays, and the watcher keeps retrying. */
    void sourceFailing(String message) {
      String text = "Git check failed; keeping " + Optional.ofNullable(status.getLastAppliedRevision()).orElse("nothing")
          + ": " + message;
      set("Ready", "False", "SourceFailed", text);
      set("Reconciling", "True", "SourceFailed", text);
      remove("Stalled"); // kstatus: a resource that is being retried is not stalled
      event("Warning", "SourceFailed", text);
    }

    /** A failure that the next pass may not have: Reconciling, not Stalled, and a quick retry. */
    void retrying(String reason, String message) {
      set("Ready", "False", reason, message);
      set("Reconciling", "True", reason, message);
      remove("Stalled");
      retryWithin(Duration.ofSeconds(10));
      event("Warning", reason, message);
    }

    void stalled(String reason, String message) {
      set("Ready", "False", reason, message);
      set("Stalled", "True", reason, message);
      remove("Reconciling");
      event("Warning", reason, message);
    }

    void failed(Revision revision, String reason, String message) {
      stalled(reason, message);
      record(revision, "Failed", 0, 0, 0);
    }

    void applied(Revision revision, List<Function> functions, SyncResult result) {
      boolean changed = !revision.toString().equals(status.getLastAppliedRevision())
          || !result.created().isEmpty() || !result.updated().isEmpty() || !result.deleted().isEmpty();
      status.setLastAppliedRevision(revision.toString());
      status.setInventory(functions.stream().map(f -> {
        InventoryEntry entry = new InventoryEntry();
        entry.setName(f.getMetadata().getName());
        entry.setNamespace(f.getMetadata().getNamespace() == null
            ? repository.getMetadata().getNamespace() : f.getMetadata().getNamespace());
        return entry;
      }).toList());
      String message = "Applied revision " + revision + ": " + functions.size() + " Functions ("
          + result.created().size() + " created, " + result.updated().size() + " updated, "
          + result.deleted().size() + " deleted)";
      set("Ready", "True", "Succeeded", message);
      remove("Reconciling");
      remove("Stalled");
      if (changed) {
        record(revision, "Applied", result.created().size(), result.updated().size(), result.deleted().size());
        event("Normal", "Succeeded", message);
      }
    }

    private void record(Revision revision, String outcome, int created, int updated, int deleted) {
      List<SyncRecord> history = status.getHistory() == null ? new ArrayList<>() : new ArrayList<>(status.getHistory());
      if (!history.isEmpty() && revision.toString().equals(history.get(0).getRevision())
          && outcome.equals(history.get(0).getOutcome()) && created + updated + deleted == 0) {
        return; // the same outcome again is not history
      }
      SyncRecord entry = new SyncRecord();
      entry.setRevision(revision.toString());
      entry.setTime(clock.instant().toString());
      entry.setOutcome(outcome);
      entry.setCreated(created);
      entry.setUpdated(updated);
      entry.setDeleted(deleted);
      history.add(0, entry);
      status.setHistory(history.size() > HISTORY ? history.subList(0, HISTORY) : history);
    }

    void retryWithin(Duration delay) {
      retry = retry == null || delay.compareTo(retry) < 0 ? delay : retry;
    }

    private void set(String type, String value, String reason, String message) {
      conditionsChanged |= Conditions.set(conditions, type, value, reason, message, generation, clock.instant());
    }

    private void remove(String type) {
      conditionsChanged |= Conditions.remove(conditions, type);
    }

    private void event(String type, String reason, String message) {
      eventType = type;
      eventReason = reason;
      eventMessage = message;
    }

    UpdateControl<FunctionRepository> finish(Duration interval) {
      status.setConditions(conditions);
      status.setObservedGeneration(generation);
      if (eventReason != null && conditionsChanged) {
        if (eventType.equals("Normal")) {
          events.normal(repository, eventReason, eventMessage);
        } else {
          events.warning(repository, eventReason, eventMessage);
        }
      }
      Duration next = retry != null && retry.compareTo(interval) < 0 ? retry : interval;
      if (before.equals(client.getKubernetesSerialization().asJson(status))) {
        return UpdateControl.<FunctionRepository>noUpdate().rescheduleAfter(next);
      }
      repository.setStatus(status);
      return UpdateControl.patchStatus(repository).rescheduleAfter(next);
    }
  }

  /**
   * The Functions with the repository's shard labels ({@code --shard-selector}'s keys, with the repository's
   * values), so that they are reconciled by the same instance as the repository; Git cannot move them elsewhere.
   */
  private List<io.gitfn.api.function.Function> shardLabelled(List<io.gitfn.api.function.Function> functions,
      FunctionRepository repository) {
    Map<String, String> shard = settings.shard().shardLabelsOf(repository.getMetadata().getLabels());
    if (shard.isEmpty()) {
      return functions;
    }
    for (io.gitfn.api.function.Function fn : functions) {
      Map<String, String> labels = new java.util.TreeMap<>();
      if (fn.getMetadata().getLabels() != null) {
        labels.putAll(fn.getMetadata().getLabels());
      }
      labels.putAll(shard);
      fn.getMetadata().setLabels(labels);
    }
    return functions;
  }
}
