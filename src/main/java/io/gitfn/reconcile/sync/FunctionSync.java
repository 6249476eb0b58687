package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.manifest.ObjectType;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gitfn.api.function.Function;
import io.gitfn.source.Revision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the Functions in the cluster match one revision of a FunctionRepository, with the Secrets it decrypted from
 * that revision and the ConfigMaps it declares ({@link RepositoryObjects}). A revision the API server rejects writes
 * nothing.
 *
 * <p>A sync runs four steps, and the first that cannot go on stops it:
 *
 * <ol>
 *   <li>{@link Refusals}: the request keeps the safety rules (target namespaces, no empty revision unless
 *       allowed);
 *   <li>{@code plan}: the desired Functions are compared with the live ones, so that only what changed in Git or
 *       drifted in the cluster is written; a Function another repository manages stops the sync;
 *   <li>{@code dryRun}: the API server checks every write with {@code dryRun=All}; if it rejects any, nothing is
 *       written;
 *   <li>{@code execute}: the writes, for real. These are separate calls (Kubernetes has no transaction), so a
 *       transient failure here, after the dry run accepted everything, leaves part of the revision written; it
 *       surfaces as {@link SyncFailedException}, and the next sync of the same revision completes it.
 * </ol>
 *
 * <p>The revision annotation says which revision last changed a Function's applied content. A new revision that
 * leaves a Function as it was does not write it, so it keeps the older revision and counts as unchanged.
 */
public final class FunctionSync {

  private static final Logger log = LoggerFactory.getLogger(FunctionSync.class);

  private final KubernetesClient client;
  private final ClusterFunctions cluster;
  private final RepositoryObjects<Secret> secrets;
  private final RepositoryObjects<ConfigMap> configMaps;
  private final ServedKinds served;

  public FunctionSync(KubernetesClient client) {
    this.client = client;
    this.served = new ServedKinds(client);
    this.cluster = new ClusterFunctions(client);
    this.secrets = new RepositoryObjects<>(client, ObjectKind.SECRETS);
    this.configMaps = new RepositoryObjects<>(client, ObjectKind.CONFIG_MAPS);
  }

  /** The object a sync would server-side apply for {@code desired}, so that {@code gitfn diff} dry-runs the same. */
  public static GenericKubernetesResource appliedObject(Function desired, String namespace, String owner,
      Revision revision) {
    return AppliedFunction.of(desired, namespace, owner, revision).object();
  }

  /**
   * The object a sync would server-side apply for {@code desired}, an object of {@code type} declared beside the
   * Functions (a ConfigMap, a route), so that {@code gitfn diff} dry-runs the same.
   *
   * @param owner the repository's label value, or null to apply none
   */
  public static GenericKubernetesResource appliedObject(HasMetadata desired, ObjectType type, String namespace,
      String owner, Revision revision) {
    ObjectMeta metadata = RepositoryObjects.metadata(desired, namespace, owner, revision);
    HasMetadata applied = type.equals(ObjectType.CONFIG_MAP)
        ? ObjectKind.CONFIG_MAPS.applied((ConfigMap) desired, metadata)
        : new AppliedKind(type).applied((GenericKubernetesResource) desired, metadata);
    return SERIALIZATION.convertValue(applied, GenericKubernetesResource.class);
  }

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /**
   * Applies {@code request.desired()} and prunes what left Git.
   *
   * @throws SyncRefusedException when the revision breaks a safety rule or the API server rejects part of it;
   *     nothing was written
   * @throws SyncFailedException when the API server fails during the real writes; a retry can finish them
   */
  public SyncResult apply(SyncRequest request) throws SyncRefusedException {
    try {
      return applyAll(request);
    } catch (SyncFailedException e) {
      // Forbidden is RBAC's answer (the repository's ServiceAccount may not read or write a kind): it will not pass by
      // itself, and nothing was written if the result says so.
      if (e.getCause() instanceof KubernetesClientException cause && cause.getCode() == 403
          && e.partial().writes() == 0) {
        throw new SyncRefusedException(List.of(e.getMessage()));
      }
      throw e;
    }
  }

  private SyncResult applyAll(SyncRequest request) throws SyncRefusedException {
    List<String> refused = new ArrayList<>(Refusals.of(request));
    refused.addAll(served.refusals(request.objects()));
    if (!refused.isEmpty()) {
      throw new SyncRefusedException(refused);
    }
    Map<FunctionKey, GenericKubernetesResource> live = new HashMap<>();
    SyncPlan plan = plan(request, live);
    Beside<Secret> secretPlan = new Beside<>(secrets, secrets.plan(request, request.secrets()), false);
    Beside<ConfigMap> configMapPlan = new Beside<>(configMaps, configMaps.plan(request, request.configMaps()), false);
    List<Beside<GenericKubernetesResource>> objectPlans = new ArrayList<>();
    request.objects().forEach((type, declared) -> {
      RepositoryObjects<GenericKubernetesResource> objects = new RepositoryObjects<>(client, new AppliedKind(type));
      objectPlans.add(new Beside<>(objects, objects.plan(request, declared), true));
    });
    List<Beside<?>> besides = new ArrayList<>(List.of(secretPlan, configMapPlan));
    besides.addAll(objectPlans);
    List<String> conflicts = new ArrayList<>(plan.conflicts());
    besides.forEach(beside -> conflicts.addAll(beside.plan().conflicts()));
    if (!conflicts.isEmpty()) {
      throw new SyncRefusedException(conflicts);
    }
    dryRun(plan, request.namespace(), besides);
    SyncResult result = execute(plan, live, request.namespace(), secretPlan, configMapPlan, objectPlans);
    log.info("synced {}/{} at {}: {} created, {} updated, {} deleted, {} unchanged; {} Secrets, {} ConfigMaps and {}"
            + " other objects written", request.namespace(), request.repository(), request.revision(),
        result.created().size(), result.updated().size(), result.deleted().size(), result.unchanged().size(),
        result.secrets().count(), result.configMaps().count(), result.objects().count());
    return result;
  }

  /**
   * Compares the desired Functions with the live ones that matter: those the repository owns (to update or prune)
   * and any other of a desired name (a conflict, or one made by hand to take over). The repository's own are listed
   * by its label, so a namespace shared by many repositories is not read whole at every sync; a desired Function
   * not among them is asked for by name, or, when there are more than {@value #GETS_BEFORE_LIST} such (a first
   * sync), the namespace is listed once instead.
   */
  private SyncPlan plan(SyncRequest request, Map<FunctionKey, GenericKubernetesResource> liveByKey) {
    List<AppliedFunction> desired = new ArrayList<>();
    for (Function function : request.desired()) {
      FunctionKey key = Refusals.placement(function, request);
      desired.add(AppliedFunction.of(function, key.namespace(), request.owner(), request.revision()));
    }
    for (String namespace : request.targetNamespaces()) {
      read(() -> cluster.listOwnedBy(namespace, request.owner()), namespace)
          .forEach(object -> liveByKey.put(FunctionKey.of(object), object));
    }
    List<FunctionKey> unknown = desired.stream().map(AppliedFunction::key).filter(k -> !liveByKey.containsKey(k))
        .toList();
    if (unknown.size() > GETS_BEFORE_LIST) {
      for (String namespace : unknown.stream().map(FunctionKey::namespace).distinct().toList()) {
        read(() -> cluster.list(namespace), namespace).forEach(object -> liveByKey.put(FunctionKey.of(object), object));
      }
    } else {
      for (FunctionKey key : unknown) {
        read(() -> cluster.get(key).map(List::of).orElse(List.of()), key.namespace())
            .forEach(object -> liveByKey.put(key, object));
      }
    }
    return SyncPlanner.plan(desired, List.copyOf(liveByKey.values()), request.owner(), request.prune());
  }

  /** Beyond this many desired Functions the repository does not own yet, one list of the namespace is cheaper. */
  static final int GETS_BEFORE_LIST = 10;

  private static List<GenericKubernetesResource> read(Supplier<List<GenericKubernetesResource>> call,
      String namespace) {
    try {
      return call.get();
    } catch (KubernetesClientException e) {
      throw new SyncFailedException(
          "cannot read the Functions in namespace " + namespace + ": " + ApiErrors.message(e), SyncResult.nothingDone(), e);
    }
  }

  /** Guarantees that the API server accepts every write of the plan, or throws with each rejection. */
  private void dryRun(SyncPlan plan, String namespace, List<Beside<?>> besides) throws SyncRefusedException {
    List<String> rejections = new ArrayList<>();
    besides.forEach(beside -> rejections.addAll(beside.dryRun(namespace)));
    List<AppliedFunction> applies = new ArrayList<>(plan.creates());
    applies.addAll(plan.updates());
    for (AppliedFunction function : applies) {
      try {
        cluster.apply(function.object(), true);
      } catch (KubernetesClientException e) {
        rejections.add(rejection(function.key(), "cannot be applied", e));
      }
    }
    for (FunctionKey key : plan.deletes()) {
      try {
        cluster.delete(key, true);
      } catch (KubernetesClientException e) {
        rejections.add(rejection(key, "cannot be pruned", e));
      }
    }
    if (!rejections.isEmpty()) {
      throw new SyncRefusedException(rejections);
    }
  }

  /** The reason a rejected write gives; a server that failed to answer is not a rejection, and stops the sync. */
  private static String rejection(FunctionKey key, String what, KubernetesClientException e) {
    if (!ApiErrors.isRejection(e)) {
      throw new SyncFailedException(
          "dry run of Function " + key + " failed: " + ApiErrors.message(e), SyncResult.nothingDone(), e);
    }
    return "Function " + key + " " + what + ": " + ApiErrors.message(e);
  }

  /**
   * Writes the plan: Secrets and ConfigMaps first, so that a Function's new Pods find what they read; then
   * Functions; then routes, to Services that are there or coming. Prunes go the other way: routes first, so no
   * traffic is sent to a Function on its way out; then Functions; then what they may read, so a Function that moved
   * is never missing it in between. The result holds each desired Function as the server answered the apply, or as
   * it was listed when unchanged.
   */
  private SyncResult execute(SyncPlan plan, Map<FunctionKey, GenericKubernetesResource> live, String namespace,
      Beside<Secret> secretPlan, Beside<ConfigMap> configMapPlan, List<Beside<GenericKubernetesResource>> objects) {
    Progress progress = new Progress(plan);
    secretPlan.applyAll(progress, namespace, progress.secrets);
    configMapPlan.applyAll(progress, namespace, progress.configMaps);
    plan.unchanged().stream().map(live::get).filter(Objects::nonNull).forEach(progress.functions::add);
    for (AppliedFunction function : plan.creates()) {
      progress.functions.add(write(progress, function.key(), () -> cluster.apply(function.object(), false)));
      progress.created.add(function.key().toString());
    }
    for (AppliedFunction function : plan.updates()) {
      progress.functions.add(write(progress, function.key(), () -> cluster.apply(function.object(), false)));
      progress.updated.add(function.key().toString());
    }
    objects.forEach(beside -> beside.applyAll(progress, namespace, progress.objects));
    objects.forEach(beside -> beside.pruneAll(progress, namespace, progress.objects));
    for (FunctionKey key : plan.deletes()) {
      write(progress, key, () -> {
        cluster.delete(key, false);
        return null;
      });
      progress.deleted.add(key.toString());
    }
    configMapPlan.pruneAll(progress, namespace, progress.configMaps);
    secretPlan.pruneAll(progress, namespace, progress.secrets);
    return progress.result();
  }

  /**
   * The plan for one kind applied beside the Functions, with what applies it.
   *
   * @param qualified whether the result names its objects with their kind, as the list of other kinds does
   */
  private record Beside<T extends HasMetadata>(RepositoryObjects<T> objects, RepositoryObjects.Plan<T> plan,
      boolean qualified) {

    List<String> dryRun(String namespace) {
      return objects.dryRun(namespace, plan);
    }

    void applyAll(Progress progress, String namespace, Changes changes) {
      for (T object : plan.applies()) {
        write(progress, namespace, object.getMetadata().getName(), () -> objects.apply(object, false));
      }
      plan.creates().stream().map(this::named).forEach(changes.created::add);
      plan.updates().stream().map(this::named).forEach(changes.updated::add);
    }

    void pruneAll(Progress progress, String namespace, Changes changes) {
      for (String name : plan.deletes()) {
        write(progress, namespace, name, () -> objects.delete(namespace, name, false));
        changes.deleted.add(named(name));
      }
    }

    /** A name as the result lists it: {@code Kind/name} where kinds mix in one list. */
    private String named(String name) {
      return qualified ? objects.kindName() + "/" + name : name;
    }

    private void write(Progress progress, String namespace, String name, Runnable call) {
      progress.writes++;
      try {
        call.run();
      } catch (KubernetesClientException e) {
        throw new SyncFailedException("writing " + objects.kindName() + " " + namespace + "/" + name
            + " failed after the dry run accepted it: " + ApiErrors.message(e), progress.result(), e);
      }
    }
  }

  /** The names of the objects of one kind a sync wrote so far. */
  private static final class Changes {
    final List<String> created = new ArrayList<>();
    final List<String> updated = new ArrayList<>();
    final List<String> deleted = new ArrayList<>();

    SyncResult.ObjectChanges result() {
      return new SyncResult.ObjectChanges(created, updated, deleted);
    }
  }

  private static GenericKubernetesResource write(Progress progress, FunctionKey key,
      Supplier<GenericKubernetesResource> call) {
    progress.writes++;
    try {
      return call.get();
    } catch (KubernetesClientException e) {
      throw new SyncFailedException(
          "writing Function " + key + " failed after the dry run accepted it: " + ApiErrors.message(e),
          progress.result(), e);
    }
  }

  /** What {@code execute} has done so far, so a failure can report it. */
  private static final class Progress {
    final List<String> created = new ArrayList<>();
    final List<String> updated = new ArrayList<>();
    final List<String> deleted = new ArrayList<>();
    final List<String> unchanged;
    final List<GenericKubernetesResource> functions = new ArrayList<>();
    final Changes secrets = new Changes();
    final Changes configMaps = new Changes();
    final Changes objects = new Changes();
    int writes;

    Progress(SyncPlan plan) {
      unchanged = plan.unchanged().stream().map(FunctionKey::toString).toList();
    }

    SyncResult result() {
      return new SyncResult(created, updated, deleted, unchanged, writes, functions,
          secrets.result(), configMaps.result(), objects.result());
    }
  }
}
