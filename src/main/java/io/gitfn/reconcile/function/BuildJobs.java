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
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.BuildlessDeployment;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.SecretData;
import io.gitfn.workload.Owner;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A Function's install Jobs in the cluster: found, started with the ConfigMap they install from, shared between the
 * Functions of a namespace with the same dependencies, deleted with it, and read for why one failed. What to install
 * and when is {@link LayeredImageStep}'s.
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

  /**
   * Creates the install Job of a dependency image and the ConfigMap it installs from, both named {@code name}. The
   * Job is shared by the namespace's Functions with the same dependencies ({@link #shareWith}): when another
   * Function's pass created it between this pass's read and its create, this Function shares it. (An apply would
   * instead take the ConfigMap's owner from the first Function, and the Job's Pod template is immutable.)
   */
  Job startInstall(Function fn, FunctionBuildPlan build, String name, LayeredImages.Progress.NeedsDependencies needs)
      throws BuildContextTooLargeException {
    DependencyInstallJob.Install install = DependencyInstallJob.of(fn, build, name, needs.base().toString(),
        needs.dependencyImage().toString(), needs.runtimeImage().toString(), needs.runtimePresent(), settings);
    Job job = install.job();
    Annotations.get(fn, Annotations.REQUESTED_AT)
        .ifPresent(value -> job.getMetadata().setAnnotations(Map.of(Annotations.REQUESTED_AT, value)));
    createUnlessThere(install.source()); // there: another Function's, shared below, or this one's earlier pass
    Optional<Job> created = createUnlessThere(job);
    if (created.isPresent()) {
      return created.get();
    }
    Job existing = client.batch().v1().jobs().inNamespace(fn.getMetadata().getNamespace()).withName(name).get();
    if (existing == null) { // deleted since: the next pass creates it
      throw new KubernetesClientException("install Job " + name + " was there a moment ago and is gone; trying again");
    }
    return ownerOf(fn, existing) ? existing : shareWith(fn, existing);
  }

  /** The object as created, or empty when one of its name is there already. */
  private <T extends HasMetadata> Optional<T> createUnlessThere(T object) {
    try {
      return Optional.of(client.resource(object).create());
    } catch (KubernetesClientException e) {
      if (e.getCode() != HTTP_CONFLICT) {
        throw e;
      }
      return Optional.empty();
    }
  }

  private static final int HTTP_CONFLICT = 409;

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
   * ConfigMap instead. A strategic merge patch deletes the one reference by its UID (the list's merge key), with no
   * resourceVersion: the API server applies the owners' patches one after another on the Job as it then is, so ten
   * Functions leaving at once make ten writes and no conflict (a precondition on the resourceVersion made that a
   * conflict for all but one, each retried on the next pass: about n²/2 writes per Job, a storm of 409s at 10,000
   * Functions). The answer to the patch that removed the last reference has none left, so exactly one owner sees
   * that and deletes the Job.
   */
  void leave(Function fn, Job job) {
    List<OwnerReference> owners = job.getMetadata().getOwnerReferences();
    if (!ownerOf(fn, job)) {
      return;
    }
    if (owners.size() == 1) {
      delete(job);
      return;
    }
    String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("ownerReferences",
        List.of(Map.of("$patch", "delete", "uid", fn.getMetadata().getUid())))));
    Job left;
    try {
      left = client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
          .withName(job.getMetadata().getName()).patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      return; // gone already
    }
    if (left.getMetadata().getOwnerReferences() == null || left.getMetadata().getOwnerReferences().isEmpty()) {
      delete(left);
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

  /** What the failed install Pod's containers said as they ended, if they said anything. */
  Optional<String> terminationMessage(Job job) {
    List<Pod> pods = client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel("job-name", job.getMetadata().getName()).list().getItems();
    // The install container says why an install failed; the pack container beside it then only says that the
    // install failed, so the install's message comes first.
    return pods.stream()
        .filter(p -> p.getStatus() != null)
        .flatMap(p -> Stream.concat(statuses(p.getStatus().getInitContainerStatuses()),
            statuses(p.getStatus().getContainerStatuses())))
        .sorted(Comparator.comparing(c -> !BuildlessDeployment.INSTALL.equals(c.getName())))
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
   * Whether the Job was started for {@code fn}, by its function-name label: the Function whose build-queue slot it
   * holds. An install Job another Function shares ({@link #shareWith}) stays the starter's; a Function deleted and
   * made again under its name keeps using the Job it left. No Job lends an image: the registry is asked for it.
   */
  static boolean ownedBy(Function fn, Job job) {
    return fn.getMetadata().getName().equals(label(job, Labels.FUNCTION_NAME));
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
}
