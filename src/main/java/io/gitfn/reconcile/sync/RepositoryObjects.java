package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The objects of one kind (Secrets, ConfigMaps) that a repository declares beside its Functions, applied with them
 * in its own namespace and pruned with them. They are never listed (the controller reads Secrets by name only, and a
 * namespace's ConfigMaps are not its business): what a repository owns comes from its status
 * ({@link Declared#owned()}), and each desired object is read by name, so that one the repository did not make is
 * never taken over and an unchanged one is not written.
 *
 * <p>No content of an object appears in a message or a log line: only kinds and names.
 */
final class RepositoryObjects<T extends HasMetadata> {

  private final KubernetesClient client;
  private final ObjectKind<T> kind;

  RepositoryObjects(KubernetesClient client, ObjectKind<T> kind) {
    this.client = client;
    this.kind = kind;
  }

  /** What the sync will do with this kind; {@code declared} says where each object is declared, for messages. */
  record Plan<T extends HasMetadata>(List<T> applies, List<String> creates, List<String> updates,
      List<String> deletes, List<String> conflicts, Declared<T> declared) {}

  Plan<T> plan(SyncRequest request, Declared<T> declared) {
    List<T> applies = new ArrayList<>();
    List<String> creates = new ArrayList<>();
    List<String> updates = new ArrayList<>();
    List<String> conflicts = new ArrayList<>();
    Set<String> desiredNames = new TreeSet<>();
    for (T desired : declared.desired()) {
      String name = desired.getMetadata().getName();
      desiredNames.add(name);
      T applied = kind.applied(desired, metadata(desired, request.namespace(), request.owner(), request.revision()));
      Optional<T> live = read(request.namespace(), name);
      if (live.isEmpty()) {
        applies.add(applied);
        creates.add(name);
        continue;
      }
      String owner = Optional.ofNullable(live.get().getMetadata().getLabels()).map(l -> l.get(Labels.REPOSITORY))
          .orElse(null);
      if (!request.owner().equals(owner)) {
        conflicts.add(declared.shown(name) + kind.name() + " " + request.namespace() + "/" + name + " exists and "
            + (owner == null ? "was not made by a FunctionRepository" : "belongs to FunctionRepository " + owner)
            + "; gitfn does not take it over: delete it, or rename the " + kind.name() + " in Git");
      } else if (!kind.sameContent(live.get(), applied) || !metadataKept(live.get(), applied)) {
        applies.add(applied);
        updates.add(name);
      }
    }
    List<String> deletes = request.prune() ? declared.owned().stream()
        .filter(name -> !desiredNames.contains(name)).sorted().toList() : List.of();
    return new Plan<>(applies, creates, updates, deletes, conflicts, declared);
  }

  /** The rejections of a dry run of {@code plan}; empty when the API server would take all of it. */
  List<String> dryRun(String namespace, Plan<T> plan) {
    List<String> rejections = new ArrayList<>();
    for (T object : plan.applies()) {
      try {
        apply(object, true);
      } catch (KubernetesClientException e) {
        rejections.add(plan.declared().shown(object.getMetadata().getName())
            + rejection(namespace, object.getMetadata().getName(), "cannot be applied", e));
      }
    }
    for (String name : plan.deletes()) {
      try {
        delete(namespace, name, true);
      } catch (KubernetesClientException e) {
        rejections.add(rejection(namespace, name, "cannot be pruned", e));
      }
    }
    return rejections;
  }

  void apply(T object, boolean dryRun) {
    kind.in(client, object.getMetadata().getNamespace()).resource(object).dryRun(dryRun)
        .fieldManager(FieldManagers.SYNC).forceConflicts().serverSideApply();
  }

  void delete(String namespace, String name, boolean dryRun) {
    kind.in(client, namespace).withName(name).dryRun(dryRun).delete();
  }

  String kindName() {
    return kind.name();
  }

  private Optional<T> read(String namespace, String name) {
    try {
      return Optional.ofNullable(kind.in(client, namespace).withName(name).get());
    } catch (KubernetesClientException e) {
      throw new SyncFailedException("cannot read " + kind.name() + " " + namespace + "/" + name + ": "
          + ApiErrors.message(e), SyncResult.nothingDone(), e);
    }
  }

  private String rejection(String namespace, String name, String what, KubernetesClientException e) {
    if (!ApiErrors.isRejection(e)) {
      throw new SyncFailedException("dry run of " + kind.name() + " " + namespace + "/" + name + " failed: "
          + ApiErrors.message(e), SyncResult.nothingDone(), e);
    }
    return kind.name() + " " + namespace + "/" + name + " " + what + ": " + ApiErrors.message(e);
  }

  /**
   * The object's metadata as the sync applies it: the repository's namespace, its label ({@code owner}; none when
   * null, for a diff without a repository), the revision.
   */
  static ObjectMeta metadata(HasMetadata desired, String namespace, String owner, Revision revision) {
    Map<String, String> labels = new TreeMap<>(Objects.requireNonNullElse(desired.getMetadata().getLabels(),
        Map.of()));
    if (owner != null) {
      labels.put(Labels.REPOSITORY, owner);
    }
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(
        desired.getMetadata().getAnnotations(), Map.of()));
    annotations.put(Annotations.REVISION, revision.toString());
    return new ObjectMetaBuilder().withName(desired.getMetadata().getName()).withNamespace(namespace)
        .withLabels(labels).withAnnotations(annotations).build();
  }

  // The revision annotation alone does not make an object changed: a new revision that leaves it as it was writes
  // nothing, as for Functions.
  private static boolean metadataKept(HasMetadata live, HasMetadata applied) {
    Map<String, String> liveLabels = Objects.requireNonNullElse(live.getMetadata().getLabels(), Map.of());
    Map<String, String> liveAnnotations = Objects.requireNonNullElse(live.getMetadata().getAnnotations(), Map.of());
    boolean labels = applied.getMetadata().getLabels().entrySet().stream()
        .allMatch(e -> e.getValue().equals(liveLabels.get(e.getKey())));
    boolean annotations = applied.getMetadata().getAnnotations().entrySet().stream()
        .filter(e -> !e.getKey().equals(Annotations.REVISION))
        .allMatch(e -> e.getValue().equals(liveAnnotations.get(e.getKey())));
    return labels && annotations;
  }
}
