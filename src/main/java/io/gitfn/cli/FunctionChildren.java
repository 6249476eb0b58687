package io.gitfn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionSpec;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.BuildlessSource;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.sync.FunctionSync;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.RegistryFailure;
import io.gitfn.source.Revision;
import io.gitfn.workload.DesiredDeployment;
import io.gitfn.workload.DesiredHpa;
import io.gitfn.workload.DesiredService;
import io.gitfn.workload.WorkloadSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The objects the Function controller creates for one Function on a fresh cluster, from the same builders and in
 * the order it applies them: the install Job and its ConfigMap when the registry lacks the Function's dependency
 * image (nothing when it holds it: a handler-only change prints no Job), the Deployment, the Service and the HPA.
 *
 * <p>They carry no owner reference: one needs the Function's UID, which only the API server assigns, and the
 * API server rejects an owner reference without it. For the same reason they have no
 * {@code serverless.kyma-project.io/uuid} label, which the controller adds (to the selector too) from the live
 * Function's UID.
 *
 * @param objects the children, in apply order
 * @param sourceDependent whether the Function has a Git source that could not be resolved, so that its ConfigMap,
 *     Job and Deployment are not among {@code objects}
 * @param notices what could not be said, for stderr: with the layered builder, a registry that could not be asked
 */
record FunctionChildren(List<HasMetadata> objects, boolean sourceDependent, List<String> notices) {

  /** FunctionSpec's {@code @Default} for replicas, which the API server fills in. */
  static final int DEFAULT_REPLICAS = 1;

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  // The sync needs a revision for its annotation; render only keeps the spec, which no revision changes.
  private static final Revision RENDERED = new Revision("render", "0".repeat(40));

  FunctionChildren {
    objects = List.copyOf(objects);
    notices = List.copyOf(notices);
  }

  /**
   * The Function as a fresh cluster holds it once a sync applied it, which is what the controller builds from: in
   * its own namespace or else in the repository's, with the spec the sync sends and the API server's default for
   * what it leaves out. Its labels stay as declared; the cluster's also hold the repository label.
   */
  static Function asApplied(Function declared, String repositoryNamespace) {
    String own = declared.getMetadata().getNamespace();
    String namespace = own == null || own.isBlank() ? repositoryNamespace : own;
    GenericKubernetesResource applied = FunctionSync.appliedObject(declared, namespace, "", RENDERED);
    Function live = SERIALIZATION.clone(declared);
    live.getMetadata().setNamespace(namespace);
    live.setSpec(SERIALIZATION.convertValue(applied.getAdditionalProperties().get("spec"), FunctionSpec.class));
    if (live.getSpec().getReplicas() == null) {
      // The sync sends no replicas that Git leaves out or that an HPA drives, and the CRD defaults them.
      live.getSpec().setReplicas(DEFAULT_REPLICAS);
    }
    return live;
  }

  /**
   * The children of {@code fn}, a Function {@linkplain #asApplied as the cluster holds it}, for a key with no
   * Succeeded build yet; without the ConfigMap, Job and Deployment when its Git source could not be resolved
   * ({@code plan} empty).
   */
  static FunctionChildren of(Function fn, Optional<FunctionBuildPlan> plan, BuildSettings builds,
      WorkloadSettings workloads, DependencyImages registry) throws BuildContextTooLargeException {
    List<HasMetadata> objects = new ArrayList<>();
    List<String> notices = new ArrayList<>();
    if (plan.isPresent() && builds.modeOf(fn) == BuildMode.BUILDLESS) {
      // What BuildlessSources and the Deployment dependent apply: no context, no Job.
      BuildlessSource source = BuildlessSource.of(fn, plan.get(), builds);
      objects.add(source.configMap(fn));
      objects.add(BuildlessDeployment.forFunction(fn, source.name(fn), builds, workloads));
    } else if (plan.isPresent()) {
      // The controller assembles the image from layers in the registry: an install Job runs only when the
      // registry lacks the dependency image, and the Deployment names the digest the push gives.
      layered(fn, plan.get(), builds, registry, objects, notices);
      objects.add(DesiredDeployment.forFunction(fn, plan.get().image(), workloads));
    }
    // Neither depends on the source.
    objects.add(DesiredService.forFunction(fn));
    DesiredHpa.forFunction(fn, workloads).ifPresent(objects::add);
    // Without a UID the reference would be invalid, not merely incomplete; see the class comment.
    objects.forEach(object -> object.getMetadata().setOwnerReferences(null));
    return new FunctionChildren(objects, plan.isEmpty(), notices);
  }

  /** The install Job and its ConfigMap, when the registry lacks {@code fn}'s dependency image. */
  private static void layered(Function fn, FunctionBuildPlan plan, BuildSettings builds, DependencyImages registry,
      List<HasMetadata> objects, List<String> notices) throws BuildContextTooLargeException {
    FunctionImages.Outcome found;
    try {
      found = registry.find(FunctionImages.Request.of(fn, plan, builds, ""));
    } catch (RegistryFailure e) {
      notices.add("whether Function " + fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName()
          + " needs an install Job is not known, so none is printed: " + e.getMessage());
      return;
    }
    if (found instanceof FunctionImages.Outcome.NeedsDependencies needs) {
      String name = DependencyInstallJob.name(needs.dependencyImage().reference());
      DependencyInstallJob.Install install = DependencyInstallJob.of(fn, plan, name, needs.base().toString(),
          needs.dependencyImage().toString(), needs.runtimeImage().toString(), needs.runtimePresent(), builds);
      objects.add(install.source());
      objects.add(install.job());
    }
  }

  /** Where render asks whether a dependency image exists: the registry, or nowhere with {@code --offline}. */
  interface DependencyImages {
    /**
     * {@link FunctionImages.Outcome.DependenciesPresent} or {@link FunctionImages.Outcome.NeedsDependencies}.
     *
     * @throws RegistryFailure when the registry cannot say
     */
    FunctionImages.Outcome find(FunctionImages.Request request) throws RegistryFailure;
  }
}
