package io.gitfn.reconcile.function;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContextConfigMapSpec;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.SecretData;
import io.gitfn.workload.Owner;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A Function's build Jobs in the cluster: found, started with their context ConfigMap, deleted with it, and read
 * for why one failed. What to build and when is {@link ImageStep}'s.
 */
final class BuildJobs {

  private final KubernetesClient client;
  private final BuildSettings settings;

  BuildJobs(KubernetesClient client, BuildSettings settings) {
    this.client = client;
    this.settings = settings;
  }

  /** The cached Job of this name, or the API server's when the cache may be behind. */
  Optional<Job> find(Function fn, String name, Collection<Job> cached, boolean mayBeMissing) {
    Optional<Job> found = cached.stream().filter(j -> j.getMetadata().getName().equals(name)).findFirst();
    // A failed Job in the cache may already be deleted and made again under the same name: ask the server.
    if (found.isPresent() && !failed(found.get())) {
      return found;
    }
    if (found.isEmpty() && mayBeMissing) {
      return Optional.empty();
    }
    return Optional.ofNullable(client.batch().v1().jobs().inNamespace(fn.getMetadata().getNamespace())
        .withName(name).get());
  }

  /** Applies the build context's ConfigMap and the Job, which carries the request it answers. */
  Job start(Function fn, FunctionBuildPlan build, String name) {
    apply(ContextConfigMapSpec.forFunction(fn, build.key(), build.context()));
    Job job = BuildJobSpec.forFunction(fn, build.key(), name, settings);
    Annotations.get(fn, Annotations.REQUESTED_AT).ifPresent(value -> {
      Map<String, String> annotations = new LinkedHashMap<>();
      if (job.getMetadata().getAnnotations() != null) {
        annotations.putAll(job.getMetadata().getAnnotations());
      }
      annotations.put(Annotations.REQUESTED_AT, value);
      job.getMetadata().setAnnotations(annotations);
    });
    return apply(job);
  }

  /**
   * Applies the install Job of a dependency image and the ConfigMap it installs from, both named {@code name}. The
   * Job is shared by the namespace's Functions with the same dependencies ({@link #shareWith}).
   */
  Job startInstall(Function fn, FunctionBuildPlan build, String name, LayeredImages.Progress.NeedsDependencies needs)
      throws BuildContextTooLargeException {
    DependencyInstallJob.Install install = DependencyInstallJob.of(fn, build, name, needs.base().toString(),
        needs.dependencyImage().toString(), needs.runtimeImage().toString(), needs.runtimePresent(), settings);
    apply(install.source());
    Job job = install.job();
    Annotations.get(fn, Annotations.REQUESTED_AT)
        .ifPresent(value -> job.getMetadata().setAnnotations(Map.of(Annotations.REQUESTED_AT, value)));
    return apply(job);
  }

  /**
   * Adds {@code fn} to the owners of another Function's install Job and of the ConfigMap it installs from, so that
   * the Job's moves wake it too and both stay while any Function that waits for the Job does: the first Function's
   * deletion must not take the ConfigMap from a Pod not yet started. A strategic merge adds the reference by its
   * UID. The ConfigMap goes first, so that a Job that names {@code fn} means its ConfigMap does too.
   */
  Job shareWith(Function fn, Job job) {
    OwnerReference owner = Owner.of(fn);
    owner.setController(false);
    owner.setBlockOwnerDeletion(false);
    String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("ownerReferences",
        List.of(owner))));
    try {
      client.configMaps().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
          .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) { // gone: the Job's Pod has it mounted already, or fails and says so
        throw e;
      }
    }
    return client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
        .withName(job.getMetadata().getName()).patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
  }

  /**
   * Takes {@code fn} off the owners of a finished install Job it shared; the last owner deletes the Job and its
   * ConfigMap instead. The patch names the Job's resourceVersion, so two Functions leaving at once cannot leave it
   * with no owner and nobody to delete it: the second is refused with a conflict, and its next pass (the first's
   * change wakes it) finds itself the last.
   */
  void leave(Function fn, Job job) {
    List<OwnerReference> others = job.getMetadata().getOwnerReferences().stream()
        .filter(ref -> !Objects.equals(ref.getUid(), fn.getMetadata().getUid())).toList();
    if (others.size() == job.getMetadata().getOwnerReferences().size()) {
      return; // not among them
    }
    if (others.isEmpty()) {
      delete(job);
      return;
    }
    // A merge patch replaces the whole list; the resourceVersion in it is a precondition (409 when it moved).
    String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of(
        "resourceVersion", job.getMetadata().getResourceVersion(), "ownerReferences", others)));
    try {
      client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409 && e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** True when {@code fn} is one of the Job's owners. */
  static boolean ownerOf(Function fn, Job job) {
    return job.getMetadata().getOwnerReferences() != null && job.getMetadata().getOwnerReferences().stream()
        .anyMatch(ref -> Objects.equals(ref.getUid(), fn.getMetadata().getUid()));
  }

  /** Deletes the Job, its Pods in the background, and its context ConfigMap. */
  void delete(Job job) {
    String namespace = job.getMetadata().getNamespace();
    client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName())
        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    client.configMaps().inNamespace(namespace).withName(job.getMetadata().getName()).delete();
  }

  /** The builder's push Secret, decoded; none when it is missing, so the registry lookup goes anonymous. */
  Map<String, String> registrySecret(Function fn) {
    Secret secret = client.secrets().inNamespace(fn.getMetadata().getNamespace()).withName(settings.registrySecret())
        .get();
    try {
      return SecretData.of(secret);
    } catch (IllegalArgumentException e) {
      return Map.of(); // a broken push Secret fails the build, with the builder's message; the lookup goes anonymous
    }
  }

  /** How long a Job runs before its Pods are asked what holds it up: most start well within it. */
  static final Duration HOLD_UP_AFTER = Duration.ofSeconds(20);

  /**
   * What holds up a Job that has run for {@link #HOLD_UP_AFTER} at {@code now} without finishing, from its Pods
   * ({@link JobPods}); empty before that, while they start or run, or when the list fails (the next pass asks again).
   * The Function's pass comes back within {@code Requeue.FUNCTION_WAITING}, so a stuck Pod shows within a minute.
   */
  Optional<String> holdUp(Job job, Instant now) {
    String started = job.getStatus() == null ? null : job.getStatus().getStartTime();
    try {
      if (started == null || Instant.parse(started).plus(HOLD_UP_AFTER).isAfter(now)) {
        return Optional.empty();
      }
      return JobPods.holdUp(client.pods().inNamespace(job.getMetadata().getNamespace())
          .withLabel("job-name", job.getMetadata().getName()).list().getItems());
    } catch (KubernetesClientException | DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /**
   * Why a failed Job failed, as a message's tail: Kubernetes stopped it at the build deadline, or what its container
   * said as it ended; empty when it said nothing.
   */
  String whyFailed(Job job) {
    return deadlineExceeded(job)
        ? ": it ran longer than the build deadline of " + GoDuration.format(settings.deadline())
            + " (--build-deadline) and was stopped"
        : terminationMessage(job).map(m -> ": " + m).orElse("");
  }

  /** What the failed build's container said as it ended, if it said anything. */
  Optional<String> terminationMessage(Job job) {
    List<Pod> pods = client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel("job-name", job.getMetadata().getName()).list().getItems();
    // An install Job's init container installs, and says why it failed; its container then never starts.
    return pods.stream()
        .filter(p -> p.getStatus() != null)
        .flatMap(p -> Stream.concat(statuses(p.getStatus().getInitContainerStatuses()),
            statuses(p.getStatus().getContainerStatuses())))
        .map(ContainerStatus::getState)
        .filter(s -> s != null && s.getTerminated() != null)
        .map(s -> s.getTerminated())
        .map(ContainerStateTerminated::getMessage)
        .filter(m -> m != null && !m.isBlank())
        .map(String::strip)
        .findFirst();
  }

  private static Stream<ContainerStatus> statuses(List<ContainerStatus> statuses) {
    return statuses == null ? Stream.empty() : statuses.stream();
  }

  /**
   * Names are unique per Function and key ({@link BuildJobSpec#name}) up to a 24-bit hash of a shortened name; a
   * Job that says it is another Function's, a brute-forced collision or a hand-made Job, never lends its image.
   * A Function deleted and made again under its name keeps using the Job it left, as the image is the same.
   */
  static boolean ownedBy(Function fn, Job job) {
    return fn.getMetadata().getName().equals(label(job, Labels.FUNCTION_NAME));
  }

  static String owners(Job job) {
    String function = label(job, Labels.FUNCTION_NAME);
    return function == null ? "it has no " + Labels.FUNCTION_NAME + " label" : "Function " + function;
  }

  static String label(Job job, String key) {
    return job.getMetadata().getLabels() == null ? null : job.getMetadata().getLabels().get(key);
  }

  static boolean succeeded(Job job) {
    return job.getStatus() != null && count(job.getStatus().getSucceeded()) > 0;
  }

  static boolean failed(Job job) {
    return job.getStatus() != null && count(job.getStatus().getFailed()) > 0;
  }

  /** Kubernetes stopped the Job at its {@code activeDeadlineSeconds}. */
  static boolean deadlineExceeded(Job job) {
    return job.getStatus() != null && job.getStatus().getConditions() != null
        && job.getStatus().getConditions().stream()
            .anyMatch(c -> "Failed".equals(c.getType()) && "DeadlineExceeded".equals(c.getReason()));
  }

  private static int count(Integer value) {
    return value == null ? 0 : value;
  }

  private <T extends HasMetadata> T apply(T desired) {
    return client.resource(desired).fieldManager(FieldManagers.FUNCTION_CONTROLLER).forceConflicts()
        .serverSideApply();
  }
}
