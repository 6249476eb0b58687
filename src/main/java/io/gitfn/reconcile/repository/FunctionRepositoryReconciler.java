package io.gitfn.reconcile.repository;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.repository.AppliedConfigMap;
import io.gitfn.api.repository.AppliedObject;
import io.gitfn.api.repository.AppliedSecret;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositoryStatus;
import io.gitfn.manifest.ManifestReader;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.RetryLater;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StatusWriter;
import io.gitfn.reconcile.StepRunner;
import io.gitfn.reconcile.Steps;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.WrittenStatuses;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.source.MirrorCache;
import io.gitfn.trigger.SourceId;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.Optional;

/**
 * Keeps a namespace's Functions equal to what a FunctionRepository's folder in Git declares. Its pass is one of
 * three step lists, each step named for what it brings into line:
 *
 * <ul>
 *   <li>full: {@link SourceStep} (the watcher tracks the spec's source), {@link RequestStep} (a manual request is
 *       answered by a fresh check), {@link VerifyStep} (with {@code spec.verify}: are its signatures trusted?),
 *       {@link DependenciesStep}, {@link RevisionStep} (read, validate and sync the
 *       revision), {@link ProgressStep} (does it run?);
 *   <li>suspended: the source and requests are kept up, and nothing is applied ({@link SuspendStep});
 *   <li>at rest: only the Functions' progress can be new ({@link RepositoryState#atRest}), read from the Function
 *       cache: {@link FetchedStep}, then {@link ProgressStep}. No Secret, Git, list or apply.
 * </ul>
 *
 * Each ends with {@link ForgeStep} and {@link DependentsStep}, which act once the status is written.
 * {@link RepositoryConditions} turns what the steps found into Ready, Reconciling and Stalled.
 */
public final class FunctionRepositoryReconciler implements Reconciler<FunctionRepository>, Cleaner<FunctionRepository> {

  private final Steps<RepositoryState> full;
  private final Steps<RepositoryState> suspended;
  private final Steps<RepositoryState> atRest;
  private final StepRunner<FunctionRepository, RepositoryState> runner;
  private final RepositoryIdentity identity;
  private final Set<String> targetNamespaces;
  private final KubernetesClient client;
  private final SourceBinding sources;
  private final ForgeReports forge;
  private final CachedFunctions functions;
  private final WakeUps<FunctionRepository> wakeUps;
  private final WrittenStatuses<FunctionRepository> written;
  private final ConfirmedSyncs confirmations;
  private final Clock clock;
  private final PullRequestInbox pullRequests;
  private final PreviewForge previewForge;
  private volatile IndexerResourceCache<FunctionRepository> cache;

  /**
   * @param sources binds each repository's spec to the watcher, which wakes it through {@code wakeUps}
   * @param functions the Function controller's cache, read by passes at rest
   * @param wakeUps where the watcher, the forge, the Functions and the repositories depended on wake a repository
   * @param written the statuses {@code writer} wrote that the informer may not show yet
   * @param confirmations the full syncs that found nothing to change, which write nothing
   */
  public FunctionRepositoryReconciler(KubernetesClient client, SourceBinding sources, MirrorCache mirrors,
      ManifestReader manifests, ControllerSettings settings, ForgeReports forge, CachedFunctions functions,
      WakeUps<FunctionRepository> wakeUps, StatusWriter writer, WrittenStatuses<FunctionRepository> written,
      ConfirmedSyncs confirmations, PullRequestInbox pullRequests, PreviewForge previewForge,
      List<String> buildSecrets, Clock clock) {
    this.pullRequests = pullRequests;
    this.previewForge = previewForge;
    this.client = client;
    this.sources = sources;
    this.forge = forge;
    this.functions = functions;
    this.wakeUps = wakeUps;
    this.written = written;
    this.confirmations = confirmations;
    this.clock = clock;
    this.runner = new StepRunner<>(new RepositoryConditions(), writer);
    this.identity = new RepositoryIdentity(client);
    this.targetNamespaces = settings.allowedTargetNamespaces();
    SourceStep source = new SourceStep(sources);
    RequestStep request = new RequestStep(sources);
    ProgressStep progress = new ProgressStep();
    ForgeStep reports = new ForgeStep(forge);
    DependentsStep dependents = new DependentsStep(wakeUps);
    PreviewsStep previews = new PreviewsStep(client, pullRequests, previewForge, forge, (namespace, name) ->
        cache().flatMap(c -> c.get(new ResourceID(name, namespace))).map(written::freshest), buildSecrets, wakeUps);
    this.full = Steps.of(source, request, new VerifyStep(new RevisionSignatures(sources, mirrors, clock)),
        new DependenciesStep(settings.shard(), written),
        new RevisionStep(mirrors, manifests, identity, settings,
            client.getKubernetesSerialization(),
            confirmations, new RevisionSecrets(sources)),
        progress).always(previews, reports, dependents);
    this.suspended = Steps.of(source, request, new SuspendStep()).always(reports, dependents);
    this.atRest = Steps.of(new FetchedStep(), progress).always(previews, reports, dependents);
  }

  @Override
  public List<EventSource<?, FunctionRepository>> prepareEventSources(EventSourceContext<FunctionRepository> context) {
    cache = context.getPrimaryCache();
    return List.of(wakeUps.source());
  }

  /** The controller's cache of FunctionRepositories; empty before the controller started. */
  public Optional<IndexerResourceCache<FunctionRepository>> cache() {
    return Optional.ofNullable(cache);
  }

  @Override
  public UpdateControl<FunctionRepository> reconcile(FunctionRepository cached,
      Context<FunctionRepository> context) throws RetryLater {
    FunctionRepository repository = written.freshest(cached);
    SourceId id = RepositoryState.idOf(repository);
    RepositoryState state = new RepositoryState(repository, context, sources.state(id), functions,
        confirmations.lastConfirmed(id), clock, client.getKubernetesSerialization());
    return runner.run(state, Boolean.TRUE.equals(repository.getSpec().getSuspend()) ? suspended
        : state.atRest() ? atRest : full);
  }

  /**
   * A deleted repository takes its Functions, the Secrets it decrypted, its ConfigMaps and its routes with it, as a Flux
   * Kustomization with prune does, unless {@code spec.prune} is false: then they stay, unowned. Only objects with
   * this repository's label go.
   */
  @Override
  public DeleteControl cleanup(FunctionRepository repository, Context<FunctionRepository> context) {
    SourceId id = RepositoryState.idOf(repository);
    sources.untrack(id);
    confirmations.forget(id);
    forge.forget(RepositoryState.KIND, repository.getMetadata().getNamespace(), repository.getMetadata().getName());
    pullRequests.forget(id);
    previewForge.forget(id);
    // A preview's repository goes with this one by its owner reference; its namespace, cluster-wide, does not.
    PreviewsStep.removeAll(client, repository);
    if (!Boolean.FALSE.equals(repository.getSpec().getPrune())) {
      String owner = Labels.repository(repository.getMetadata().getNamespace(), repository.getMetadata().getName());
      FunctionRepositoryStatus status = Objects.requireNonNullElse(repository.getStatus(),
          new FunctionRepositoryStatus());
      String namespace = repository.getMetadata().getNamespace();
      // As the repository applied them: with its ServiceAccount's rights, when it names one.
      KubernetesClient writer = identity.clientFor(repository);
      // Routes first, so that no traffic is sent to a Function on its way out.
      for (AppliedObject object : Objects.requireNonNullElse(status.getObjects(), List.<AppliedObject>of())) {
        deleteOwned(writer.genericKubernetesResources(object.getApiVersion(), object.getKind()).inNamespace(namespace)
            .withName(object.getName()), owner);
      }
      if (RepositoryIdentity.serviceAccount(repository).isEmpty()) {
        writer.resources(Function.class).inAnyNamespace().withLabel(Labels.REPOSITORY, owner).delete();
      } else {
        // A ServiceAccount's rights are namespaced: only where the repository may write.
        Set<String> namespaces = new TreeSet<>(targetNamespaces);
        namespaces.add(namespace);
        namespaces.forEach(ns -> writer.resources(Function.class).inNamespace(ns)
            .withLabel(Labels.REPOSITORY, owner).delete());
      }
      for (AppliedSecret secret : Objects.requireNonNullElse(status.getSecrets(), List.<AppliedSecret>of())) {
        deleteOwned(writer.secrets().inNamespace(namespace).withName(secret.getName()), owner);
      }
      for (AppliedConfigMap map : Objects.requireNonNullElse(status.getConfigMaps(), List.<AppliedConfigMap>of())) {
        deleteOwned(writer.configMaps().inNamespace(namespace).withName(map.getName()), owner);
      }
    }
    return DeleteControl.defaultDelete();
  }

  // By name, from status: the controller never lists Secrets, nor a namespace's ConfigMaps or routes. Only those that
  // still carry this repository's label go.
  private static void deleteOwned(Resource<? extends HasMetadata> named, String owner) {
    HasMetadata live;
    try {
      live = named.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return; // the kind itself is gone (its CRD was deleted), and its objects with it
      }
      throw e;
    }
    if (live != null && live.getMetadata().getLabels() != null
        && owner.equals(live.getMetadata().getLabels().get(Labels.REPOSITORY))) {
      named.delete();
    }
  }
}
