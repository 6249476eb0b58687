package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.APPLY_FAILED;
import static io.gitfn.api.repository.RepositoryConditionReason.APPLY_REFUSED;
import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_REVISION;
import static io.gitfn.api.repository.RepositoryConditionReason.SERVICE_ACCOUNT_REQUIRED;
import static io.gitfn.api.repository.RepositoryConditionReason.SOURCE_READ_FAILED;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionProgress;
import io.gitfn.api.repository.AppliedConfigMap;
import io.gitfn.api.repository.AppliedObject;
import io.gitfn.api.repository.AppliedSecret;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.api.repository.InventoryEntry;
import io.gitfn.api.repository.LastSync;
import io.gitfn.manifest.DeclaredConfigMap;
import io.gitfn.manifest.DeclaredObject;
import io.gitfn.manifest.InvalidManifestException;
import io.gitfn.manifest.Manifest;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.manifest.ObjectType;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.Failures;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.sync.Declared;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.reconcile.sync.SyncFailedException;
import io.gitfn.reconcile.sync.SyncRefusedException;
import io.gitfn.reconcile.sync.SyncRequest;
import io.gitfn.reconcile.sync.SyncResult;
import io.gitfn.secrets.DecryptedSecret;
import io.gitfn.secrets.SecretReferences;
import io.gitfn.workload.ConfigMapReferences;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.Revision;
import io.gitfn.source.Snapshot;
import io.gitfn.source.SourceException;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.TrackedSource;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.stream.Collectors;

/**
 * Guarantees that the revision Git holds is what the cluster runs: it is read, validated whole, its encrypted Secrets
 * decrypted ({@link RevisionSecrets}), and synced with server-side apply (dry run of everything, then every write),
 * and {@code status} names it, its inventory, its Secrets and a history entry when anything changed. A Function
 * that reads one of those Secrets carries their keyed digest, so its Pods roll when one changes. Nothing of an invalid or refused revision is applied: the pass stalls
 * naming the file, line and field at fault, and what was applied before stays. A read or an apply that may pass by
 * itself is retried. A preview's repository ({@code spec.previewOf}) applies the same way into its preview's namespace
 * ({@link PreviewTarget}, {@link PreviewRevision}).
 */
final class RevisionStep implements Step<RepositoryState> {

  // A condition message must stay far below the object size limit, however broken the revision is.
  private static final int ERRORS_SHOWN = 20;

  private final MirrorCache mirrors;
  private final ManifestReader manifests;
  private final RepositoryIdentity identity;
  private final ControllerSettings settings;
  private final KubernetesSerialization json;
  private final ConfirmedSyncs confirmations;
  private final RevisionSecrets secrets;

  RevisionStep(MirrorCache mirrors, ManifestReader manifests, RepositoryIdentity identity, ControllerSettings settings,
      KubernetesSerialization json, ConfirmedSyncs confirmations, RevisionSecrets secrets) {
    this.secrets = secrets;
    this.confirmations = confirmations;
    this.mirrors = mirrors;
    this.manifests = manifests;
    this.identity = identity;
    this.settings = settings;
    this.json = json;
  }

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    Revision revision = state.fetched();
    state.attempted(revision);
    state.status().setLastAttemptedRevision(revision.toString());
    if (settings.requireServiceAccount() && RepositoryIdentity.serviceAccount(state.resource()).isEmpty()) {
      throw StepFailure.stalled(SERVICE_ACCOUNT_REQUIRED, "spec.serviceAccountName is required by this controller"
          + " (--require-service-account): name a ServiceAccount of namespace "
          + state.resource().getMetadata().getNamespace() + " whose RBAC decides what this repository may apply;"
          + " nothing of " + revision + " was applied");
    }
    FunctionRepository repository = state.resource();
    Optional<PreviewTarget> preview = PreviewTarget.of(repository, identity.controller());
    Manifest manifest = read(state, revision);
    // A preview decrypts only when its repository's spec.previews.decryption gave it spec.decryption.
    RevisionSecrets.Decrypted secrets = preview.isPresent() && repository.getSpec().getDecryption() == null
        ? RevisionSecrets.Decrypted.NONE : this.secrets.decrypt(state, revision, manifest);
    SyncResult result = apply(state, revision, manifest, secrets, preview);
    List<Function> functions = result.functions().stream().map(f -> json.convertValue(f, Function.class)).toList();
    Applied before = Applied.of(state.status());
    applied(state, revision, manifest.functions(), result, functions);
    state.status().setConfigMaps(manifest.configMaps().isEmpty() ? null : manifest.configMaps().stream()
        .map(c -> new AppliedConfigMap(c.name(), c.file())).toList());
    // A preview without a host template applies no routes.
    boolean routes = preview.isEmpty() || preview.get().host().isPresent();
    state.status().setObjects(manifest.objects().isEmpty() || !routes ? null : manifest.objects().stream()
        .map(o -> new AppliedObject(o.type().apiVersion(), o.type().kind(), o.name(), o.file())).toList());
    state.status().setSecrets(secrets.secrets().isEmpty() ? null : secrets.secrets().stream()
        .map(d -> new AppliedSecret(d.secret().getMetadata().getName(), d.file(), d.recipient())).toList());
    state.functions(functions.stream().map(FunctionProgress::of).toList());
    LastSync sync = new LastSync(state.now().toString(), repository.getMetadata().getGeneration(),
        RepositoryState.labelsDigest(repository));
    if (stands(before, Applied.of(state.status()), sync, result)) {
      // The periodic sync found nothing to change: status stays as it was, so a repository at rest is not written.
      SourceId id = RepositoryState.idOf(repository);
      Instant at = state.now();
      state.confirmed(at);
      state.afterWrite(() -> confirmations.confirmed(id, at));
    } else {
      state.status().setLastSync(sync);
    }
    return Result.next();
  }

  /**
   * Whether the sync only confirmed the last one: same revision, generation and labels, nothing created, updated or
   * deleted, each Function at the generation that one left, and the other objects from the same files.
   */
  static boolean stands(Applied before, Applied after, LastSync sync, SyncResult result) {
    LastSync last = before.sync();
    return last != null && RepositoryState.syncTime(last).isPresent()
        && Objects.equals(last.getGeneration(), sync.getGeneration())
        && Objects.equals(last.getLabels(), sync.getLabels())
        && Objects.equals(before.revision(), after.revision()) && !result.changed()
        && before.inventory().equals(after.inventory()) && before.others().equals(after.others());
  }

  /** What a status says was applied: the revision, the sync's record, and each Function at its generation. */
  /**
   * What a status says was applied: the revision, the sync's record, each Function at its generation, and the other
   * objects with the files they came from (a file renamed in Git is news, though nothing in the cluster changed).
   */
  record Applied(String revision, LastSync sync, List<String> inventory, List<String> others) {

    static Applied of(FunctionRepositoryStatus status) {
      List<String> others = new ArrayList<>();
      Objects.requireNonNullElse(status.getSecrets(), List.<AppliedSecret>of()).forEach(s -> others.add(
          "Secret " + s.getName() + " " + s.getFile() + " " + s.getRecipient()));
      Objects.requireNonNullElse(status.getConfigMaps(), List.<AppliedConfigMap>of()).forEach(c -> others.add(
          "ConfigMap " + c.getName() + " " + c.getFile()));
      Objects.requireNonNullElse(status.getObjects(), List.<AppliedObject>of()).forEach(o -> others.add(
          o.getApiVersion() + "/" + o.getKind() + " " + o.getName() + " " + o.getFile()));
      return new Applied(status.getLastAppliedRevision(), status.getLastSync(),
          Objects.requireNonNullElse(status.getInventory(), List.<InventoryEntry>of()).stream()
              .map(e -> e.getNamespace() + "/" + e.getName() + "@" + e.getGeneration()).toList(), others);
    }
  }

  private Manifest read(RepositoryState state, Revision revision) throws StepFailure {
    FunctionRepositorySpec spec = state.resource().getSpec();
    TrackedSource source = state.tracked();
    try {
      Snapshot snapshot = mirrors.read(source.url(), source.credentials(), revision);
      state.commit(snapshot.summary());
      return manifests.read(snapshot, spec.getPath() == null ? "." : spec.getPath(), ignoreLines(spec));
    } catch (InvalidManifestException e) {
      String stays = state.whatStays();
      // The forge shows 140 to 255 characters: the first error's file and line come first there.
      state.verdict(new Verdict(revision, CommitState.FAILURE, INVALID_REVISION, e.errors().stream()
          .map(ManifestError::toString).collect(Collectors.joining("; ")) + " (nothing of " + revision
          + " was applied; " + stays + ")"));
      throw StepFailure.stalled(INVALID_REVISION, "revision " + revision + " is invalid; nothing from it was applied, "
          + stays + ":\n" + firstErrors(e.errors()));
    } catch (SourceException | IOException e) {
      if (Failures.stalls(e)) {
        throw StepFailure.stalled(SOURCE_READ_FAILED, "cannot read " + revision + ": " + Failures.message(e));
      }
      throw StepFailure.retry(SOURCE_READ_FAILED, "reading " + revision + " failed and will be retried: "
          + Failures.message(e), e);
    }
  }

  private SyncResult apply(RepositoryState state, Revision revision, Manifest manifest,
      RevisionSecrets.Decrypted secrets, Optional<PreviewTarget> preview) throws StepFailure {
    FunctionRepository repository = state.resource();
    FunctionRepositorySpec spec = repository.getSpec();
    String home = repository.getMetadata().getNamespace();
    String namespace = preview.map(PreviewTarget::namespace).orElse(home);
    List<ConfigMap> configMaps = configMapsIn(revision, manifest, home, namespace);
    Map<ObjectType, Declared<GenericKubernetesResource>> objects = objectsIn(revision, manifest, home, namespace,
        Objects.requireNonNullElse(state.status().getObjects(), List.of()));
    List<Function> desired = settings.shard().label(manifest.functions(), repository.getMetadata().getLabels());
    RelativeSourceUrls.resolve(state, revision, desired);
    if (preview.isPresent()) {
      PreviewRevision.place(revision, desired, home, namespace);
      secrets.secrets().forEach(s -> s.secret().getMetadata().setNamespace(namespace));
      objects = PreviewRevision.routes(revision, objects, preview.get());
      state.status().setPreviewURL(PreviewRevision.url(objects, desired, namespace).orElse(null));
    }
    Map<String, String> secretDigests = secrets.secrets().stream().collect(Collectors.toMap(
        d -> d.secret().getMetadata().getName(), DecryptedSecret::digest));
    Map<String, ConfigMap> configMapsByName = configMaps.stream().collect(Collectors.toMap(
        c -> c.getMetadata().getName(), c -> c));
    for (Function fn : desired) {
      SecretReferences.digest(fn, secretDigests, secrets.digestKey())
          .ifPresent(digest -> annotate(fn, Annotations.SECRETS_DIGEST, digest));
      ConfigMapReferences.digest(fn, configMapsByName)
          .ifPresent(digest -> annotate(fn, Annotations.CONFIG_MAPS_DIGEST, digest));
      if (Boolean.FALSE.equals(spec.getAutoRollback())) {
        annotate(fn, Annotations.AUTO_ROLLBACK, "false");
      }
    }
    try {
      return new FunctionSync(identity.clientFor(repository)).apply(new SyncRequest(namespace,
          repository.getMetadata().getName(), revision, desired, spec.getPrune() == null || spec.getPrune(),
          Boolean.TRUE.equals(spec.getAllowEmpty()),
          preview.isPresent() ? Set.of() : settings.allowedTargetNamespaces(),
          new Declared<>(secrets.secrets().stream().map(DecryptedSecret::secret).toList(),
              Objects.requireNonNullElse(state.status().getSecrets(), List.<AppliedSecret>of()).stream()
                  .map(AppliedSecret::getName).collect(Collectors.toSet())),
          new Declared<>(configMaps, Objects.requireNonNullElse(state.status().getConfigMaps(),
              List.<AppliedConfigMap>of()).stream().map(AppliedConfigMap::getName).collect(Collectors.toSet()),
              manifest.configMaps().stream().collect(Collectors.toMap(DeclaredConfigMap::name,
                  DeclaredConfigMap::place))),
          objects, home));
    } catch (SyncRefusedException e) {
      throw StepFailure.stalled(APPLY_REFUSED, "revision " + revision + " was not applied: "
          + String.join("; ", e.reasons()));
    } catch (SyncFailedException e) {
      throw StepFailure.retry(APPLY_FAILED, "applying " + revision + " failed and will be retried: "
          + e.getMessage(), e);
    }
  }

  /**
   * Records the applied revision: its inventory, with each Function's generation as the apply left it (so that a
   * later pass can tell a hand edit), a history entry and the Event's news when anything changed.
   */
  private static void applied(RepositoryState state, Revision revision, List<Function> declared, SyncResult result,
      List<Function> written) {
    FunctionRepositoryStatus status = state.status();
    boolean changed = !revision.toString().equals(status.getLastAppliedRevision()) || result.created().size()
        + result.updated().size() + result.deleted().size() > 0 || result.secrets().count() > 0
        || result.configMaps().count() > 0 || result.objects().count() > 0;
    status.setLastAppliedRevision(revision.toString());
    String namespace = state.resource().getMetadata().getNamespace();
    Map<String, Long> generations = written.stream().collect(Collectors.toMap(
        f -> f.getMetadata().getNamespace() + "/" + f.getMetadata().getName(),
        f -> Objects.requireNonNullElse(f.getMetadata().getGeneration(), 0L), BinaryOperator.maxBy(Long::compare)));
    status.setInventory(declared.stream().map(f -> {
      InventoryEntry entry = new InventoryEntry(f.getMetadata().getName(),
          f.getMetadata().getNamespace() == null ? namespace : f.getMetadata().getNamespace());
      entry.setGeneration(generations.get(entry.getNamespace() + "/" + entry.getName()));
      return entry;
    }).toList());
    if (changed) {
      RepositoryConditions.record(state, revision, RepositoryConditions.APPLIED, result.created().size(),
          result.updated().size(), result.deleted().size());
      state.appliedNote("Applied revision " + revision + ": " + declared.size() + " Functions ("
          + result.created().size() + " created, " + result.updated().size() + " updated, "
          + result.deleted().size() + " deleted)" + note("Secrets", result.secrets())
          + note("ConfigMaps", result.configMaps()) + note("other objects", result.objects()));
    }
  }

  private static void annotate(Function fn, String key, String value) {
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(fn.getMetadata().getAnnotations(),
        Map.of()));
    annotations.put(key, value);
    fn.getMetadata().setAnnotations(annotations);
  }

  /**
   * The revision's ConfigMaps, in the repository's namespace ({@code home}), placed in {@code namespace} (a
   * preview's, or the same); one that names another is refused at its line, and nothing of the revision applies.
   */
  private static List<ConfigMap> configMapsIn(Revision revision, Manifest manifest, String home, String namespace)
      throws StepFailure.Stalled {
    List<String> refused = manifest.configMaps().stream().map(c -> c.refusedIn(home)).flatMap(Optional::stream)
        .map(ManifestError::toString).toList();
    if (!refused.isEmpty()) {
      throw StepFailure.stalled(APPLY_REFUSED, "revision " + revision + " was not applied: "
          + String.join("; ", refused));
    }
    return manifest.configMaps().stream().map(c -> {
      ConfigMap placed = c.in(home);
      placed.getMetadata().setNamespace(namespace);
      return placed;
    }).toList();
  }

  /**
   * The revision's objects of other kinds (routes) by kind, in the repository's namespace, each kind with the names
   * the repository applied before ({@code owned}), so that a kind that left Git whole is pruned too. One that names
   * another namespace is refused at its line, and nothing of the revision applies.
   */
  private static Map<ObjectType, Declared<GenericKubernetesResource>> objectsIn(Revision revision, Manifest manifest,
      String home, String namespace, List<AppliedObject> owned) throws StepFailure.Stalled {
    List<String> refused = manifest.objects().stream().map(o -> o.refusedIn(home)).flatMap(Optional::stream)
        .map(ManifestError::toString).toList();
    if (!refused.isEmpty()) {
      throw StepFailure.stalled(APPLY_REFUSED, "revision " + revision + " was not applied: "
          + String.join("; ", refused));
    }
    Map<ObjectType, List<DeclaredObject>> desired = manifest.objects().stream()
        .collect(Collectors.groupingBy(DeclaredObject::type));
    Map<ObjectType, Set<String>> ownedNames = owned.stream().collect(Collectors.groupingBy(
        o -> new ObjectType(o.getApiVersion(), o.getKind()), Collectors.mapping(AppliedObject::getName,
            Collectors.toSet())));
    Set<ObjectType> types = new HashSet<>(desired.keySet());
    types.addAll(ownedNames.keySet());
    Map<ObjectType, Declared<GenericKubernetesResource>> objects = new HashMap<>();
    for (ObjectType type : types) {
      List<DeclaredObject> declared = desired.getOrDefault(type, List.of());
      objects.put(type, new Declared<>(declared.stream().map(o -> {
        GenericKubernetesResource placed = o.in(home);
        placed.getMetadata().setNamespace(namespace);
        return placed;
      }).toList(),
          ownedNames.getOrDefault(type, Set.of()),
          declared.stream().collect(Collectors.toMap(DeclaredObject::name, DeclaredObject::place))));
    }
    return objects;
  }

  private static String note(String kind, SyncResult.ObjectChanges changes) {
    return changes.count() == 0 ? "" : "; " + kind + ": " + changes.created().size() + " created, "
        + changes.updated().size() + " updated, " + changes.deleted().size() + " deleted";
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
