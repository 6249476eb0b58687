package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Secrets part of a sync: the Secrets a repository decrypted from its revision, applied in its own namespace
 * with the Functions and pruned with them. Secrets are never listed (the controller's RBAC reads them by name only):
 * what a repository owns comes from its status ({@link SyncRequest#ownedSecrets()}), and each desired Secret is
 * read by name, so that one the repository does not own is never taken over and an unchanged one is not written.
 *
 * <p>No value of a Secret appears in a message or a log line: only names.
 */
final class RepositorySecrets {

  private final KubernetesClient client;

  RepositorySecrets(KubernetesClient client) {
    this.client = client;
  }

  /** What the sync will do with Secrets. */
  record Plan(List<Secret> applies, List<String> creates, List<String> updates, List<String> deletes,
      List<String> conflicts) {}

  Plan plan(SyncRequest request) {
    List<Secret> applies = new ArrayList<>();
    List<String> creates = new ArrayList<>();
    List<String> updates = new ArrayList<>();
    List<String> conflicts = new ArrayList<>();
    Set<String> desiredNames = new TreeSet<>();
    for (Secret desired : request.secrets()) {
      String name = desired.getMetadata().getName();
      desiredNames.add(name);
      Secret applied = applied(desired, request);
      Optional<Secret> live = read(request.namespace(), name);
      if (live.isEmpty()) {
        applies.add(applied);
        creates.add(name);
        continue;
      }
      String owner = Optional.ofNullable(live.get().getMetadata().getLabels()).map(l -> l.get(Labels.REPOSITORY))
          .orElse(null);
      if (!request.owner().equals(owner)) {
        conflicts.add("Secret " + request.namespace() + "/" + name + " exists and "
            + (owner == null ? "was not made by a FunctionRepository" : "belongs to FunctionRepository " + owner)
            + "; gitfn does not take it over: delete it, or rename the Secret in Git");
      } else if (!same(live.get(), applied)) {
        applies.add(applied);
        updates.add(name);
      }
    }
    List<String> deletes = request.prune() ? request.ownedSecrets().stream()
        .filter(name -> !desiredNames.contains(name)).sorted().toList() : List.of();
    return new Plan(applies, creates, updates, deletes, conflicts);
  }

  /** The rejections of a dry run of {@code plan}; empty when the API server would take all of it. */
  List<String> dryRun(String namespace, Plan plan) {
    List<String> rejections = new ArrayList<>();
    for (Secret secret : plan.applies()) {
      try {
        apply(secret, true);
      } catch (KubernetesClientException e) {
        rejections.add(rejection(namespace, secret.getMetadata().getName(), "cannot be applied", e));
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

  void apply(Secret secret, boolean dryRun) {
    client.secrets().inNamespace(secret.getMetadata().getNamespace()).resource(secret).dryRun(dryRun)
        .fieldManager(FieldManagers.SYNC).forceConflicts().serverSideApply();
  }

  void delete(String namespace, String name, boolean dryRun) {
    client.secrets().inNamespace(namespace).withName(name).dryRun(dryRun).delete();
  }

  private Optional<Secret> read(String namespace, String name) {
    try {
      return Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get());
    } catch (KubernetesClientException e) {
      throw new SyncFailedException("cannot read Secret " + namespace + "/" + name + ": " + ApiErrors.message(e),
          new SyncResult(List.of(), List.of(), List.of(), List.of(), 0, List.of()), e);
    }
  }

  private static String rejection(String namespace, String name, String what, KubernetesClientException e) {
    if (!ApiErrors.isRejection(e)) {
      throw new SyncFailedException("dry run of Secret " + namespace + "/" + name + " failed: "
          + ApiErrors.message(e), new SyncResult(List.of(), List.of(), List.of(), List.of(), 0, List.of()), e);
    }
    return "Secret " + namespace + "/" + name + " " + what + ": " + ApiErrors.message(e);
  }

  /** The Secret as the sync applies it: in the repository's namespace, labelled for it, stamped with the revision. */
  private static Secret applied(Secret desired, SyncRequest request) {
    Map<String, String> labels = new TreeMap<>(Objects.requireNonNullElse(desired.getMetadata().getLabels(),
        Map.of()));
    labels.put(Labels.REPOSITORY, request.owner());
    Map<String, String> annotations = new TreeMap<>(Objects.requireNonNullElse(
        desired.getMetadata().getAnnotations(), Map.of()));
    annotations.put(Annotations.REVISION, request.revision().toString());
    return new SecretBuilder()
        .withApiVersion("v1").withKind("Secret")
        .withMetadata(new ObjectMetaBuilder().withName(desired.getMetadata().getName())
            .withNamespace(request.namespace()).withLabels(labels).withAnnotations(annotations).build())
        .withType(desired.getType())
        .withImmutable(desired.getImmutable())
        .withData(desired.getData())
        .build();
  }

  // The revision annotation alone does not make a Secret changed: a new revision that leaves it as it was writes
  // nothing, as for Functions.
  private static boolean same(Secret live, Secret applied) {
    return Objects.equals(Objects.requireNonNullElse(live.getData(), Map.of()),
            Objects.requireNonNullElse(applied.getData(), Map.of()))
        && Objects.equals(Objects.requireNonNullElse(live.getType(), "Opaque"),
            Objects.requireNonNullElse(applied.getType(), "Opaque"))
        && labelsAndAnnotationsKept(live, applied);
  }

  private static boolean labelsAndAnnotationsKept(Secret live, Secret applied) {
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
