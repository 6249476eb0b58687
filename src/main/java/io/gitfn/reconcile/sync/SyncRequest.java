package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.source.Revision;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gitfn.manifest.ObjectType;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one sync of a FunctionRepository should make true.
 *
 * @param namespace the FunctionRepository's namespace; Functions without one go here
 * @param repository the FunctionRepository's name
 * @param revision the revision the desired Functions were read at
 * @param desired every Function the revision declares; their metadata other than name, namespace, labels and
 *     annotations is ignored
 * @param prune whether Functions of this repository that left Git are deleted
 * @param allowEmpty whether a revision with no Functions may be synced (and so prune all of them)
 * @param allowedTargetNamespaces namespaces other than {@code namespace} this repository may write to
 * @param secrets the Secrets the revision declares (decrypted), and those the repository applied before
 * @param configMaps the ConfigMaps the revision declares, and those the repository applied before
 * @param objects the objects of other allowed kinds (routes) the revision declares, and those the repository applied
 *     before, by kind: a kind with nothing declared is still here while the repository owns some, to prune them
 * @param home the FunctionRepository's own namespace, when it applies into another ({@code namespace}: a preview's,
 *     see docs/previews.md); its label names it there. Null: {@code namespace}.
 */
public record SyncRequest(
    String namespace,
    String repository,
    Revision revision,
    List<Function> desired,
    boolean prune,
    boolean allowEmpty,
    Set<String> allowedTargetNamespaces,
    Declared<Secret> secrets,
    Declared<ConfigMap> configMaps,
    Map<ObjectType, Declared<GenericKubernetesResource>> objects,
    String home) {

  /** A request of a repository that applies into its own namespace. */
  public SyncRequest(String namespace, String repository, Revision revision, List<Function> desired, boolean prune,
      boolean allowEmpty, Set<String> allowedTargetNamespaces, Declared<Secret> secrets,
      Declared<ConfigMap> configMaps, Map<ObjectType, Declared<GenericKubernetesResource>> objects) {
    this(namespace, repository, revision, desired, prune, allowEmpty, allowedTargetNamespaces, secrets, configMaps,
        objects, null);
  }

  /** A request with Functions only. */
  public SyncRequest(String namespace, String repository, Revision revision, List<Function> desired, boolean prune,
      boolean allowEmpty, Set<String> allowedTargetNamespaces) {
    this(namespace, repository, revision, desired, prune, allowEmpty, allowedTargetNamespaces, Declared.none(),
        Declared.none());
  }

  /** A request without objects of other kinds. */
  public SyncRequest(String namespace, String repository, Revision revision, List<Function> desired, boolean prune,
      boolean allowEmpty, Set<String> allowedTargetNamespaces, Declared<Secret> secrets,
      Declared<ConfigMap> configMaps) {
    this(namespace, repository, revision, desired, prune, allowEmpty, allowedTargetNamespaces, secrets, configMaps,
        Map.of());
  }

  public SyncRequest {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(revision, "revision");
    desired = List.copyOf(Objects.requireNonNull(desired, "desired"));
    allowedTargetNamespaces = Set.copyOf(Objects.requireNonNull(allowedTargetNamespaces, "allowedTargetNamespaces"));
    Objects.requireNonNull(secrets, "secrets");
    Objects.requireNonNull(configMaps, "configMaps");
    // Sorted by kind, so that a sync writes and reports them in one order.
    Map<ObjectType, Declared<GenericKubernetesResource>> sorted = new TreeMap<>(
        Comparator.comparing(ObjectType::toString));
    sorted.putAll(Objects.requireNonNull(objects, "objects"));
    objects = Collections.unmodifiableMap(sorted);
    home = home == null ? namespace : home;
  }

  /** The value of {@link Labels#REPOSITORY} on every Function of this repository. */
  public String owner() {
    return Labels.repository(home, repository);
  }

  /** Every namespace this repository may write to, and so prunes in: its own and the allowed ones. */
  public Set<String> targetNamespaces() {
    Set<String> all = new TreeSet<>(allowedTargetNamespaces);
    all.add(namespace);
    return all;
  }
}
