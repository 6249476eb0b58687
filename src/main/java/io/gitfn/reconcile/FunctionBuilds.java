package io.gitfn.reconcile;

import static io.gitfn.api.function.ConditionReason.JOB_FAILED;
import static io.gitfn.api.function.ConditionReason.JOB_FINISHED;
import static io.gitfn.api.function.ConditionReason.JOB_QUEUED;
import static io.gitfn.api.function.ConditionReason.JOB_RUNNING;
import static io.gitfn.api.function.ConditionType.BUILD_READY;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gitfn.api.Annotations;
import io.gitfn.api.FieldManagers;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.ContextConfigMapSpec;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.registry.RegistryLookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A Function's build Jobs: finds or makes the image of a content key through the cluster-wide {@link BuildQueue},
 * and deletes the Jobs that are no longer needed.
 */
final class FunctionBuilds {

  // A safety net only: the Job informer wakes the Function when its Job changes.
  private static final Duration WAITING = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final BuildSettings settings;
  private final BuildQueue queue;
  private final Consumer<Function> wake;
  private final RegistryLookup registry;
  private final Counter succeededBuilds;
  /**
   * The finished Jobs already counted, by UID. Two passes that start from a cached Function whose status lacks the
   * Job's history entry both record it; the counters must not count it twice. Bounded: only recent Jobs can race.
   */
  private final Map<String, Boolean> counted = Collections.synchronizedMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > 4096;
    }
  });
  private final Counter failedBuilds;

  FunctionBuilds(KubernetesClient client, BuildSettings settings, BuildQueue queue, RegistryLookup registry,
      Consumer<Function> wake, MeterRegistry meters) {
    this.succeededBuilds = builds(meters, "succeeded");
    this.failedBuilds = builds(meters, "failed");
    this.client = client;
    this.settings = settings;
    this.queue = queue;
    this.registry = registry;
    this.wake = wake;
  }

  /**
   * Makes sure the image for the key exists; returns true when it does. A key with a Succeeded or Reused history
   * entry, or a completed Job, needs no build, and neither does an image the registry already has when the
   * lookup is on. Otherwise the build waits for a slot in the queue, then the context ConfigMap and the Job are
   * created and BuildReady follows the Job. A failed Job leaves the running Deployment as
   * it is; a new {@code gitfn.io/requested-at} on the Function builds it again.
   */
  boolean ensure(Function fn, FunctionBuildPlan build, Collection<Job> jobs, FunctionPass pass) {
    String built = "image " + build.image() + " is built";
    if (pass.knownGood(build.key(), build.image())) {
      account(fn, jobs, Optional.empty());
      queue.withdraw(owner(fn));
      pass.condition(BUILD_READY, "True", JOB_FINISHED, built);
      return true;
    }
    String name = BuildJobSpec.name(fn, build.key());
    Optional<Job> found = find(fn, name, jobs);
    if (found.isPresent() && !ownedBy(fn, found.get())) {
      pass.condition(BUILD_READY, "False", JOB_FAILED, "Job " + name + " is not this Function's ("
          + owners(found.get()) + "); gitfn does not run an image another Function's Job built. Delete that Job, or "
          + "rename one of the Functions");
      return false;
    }
    account(fn, jobs, found);
    if (found.isPresent() && failed(found.get()) && retryRequested(fn, found.get())) {
      delete(found.get()); // its deletion wakes the Function, whose next pass queues the build again
      pass.condition(BUILD_READY, "Unknown", JOB_QUEUED, "building " + build.image() + " again, as requested");
      return false;
    }
    if (found.isEmpty()) {
      BuildQueue.Admission admission = queue.admit(owner(fn), jobKey(fn, name), () -> wake.accept(fn));
      if (!admission.started()) {
        pass.condition(BUILD_READY, "Unknown", JOB_QUEUED, build.image() + " is " + admission.describe());
        return false;
      }
      // Asked once per build attempt, after the slot: a Function waiting in the queue asks nothing.
      if (registry.enabled() && registry.check(build.image(), registrySecret(fn)).exists()) {
        queue.finished(jobKey(fn, name));
        pass.condition(BUILD_READY, "True", JOB_FINISHED, "image " + build.image() + " is already in the registry");
        pass.record(build.key(), build.image(), FunctionPass.REUSED);
        return true;
      }
      try {
        found = Optional.of(start(fn, build, name));
      } catch (RuntimeException e) {
        queue.finished(jobKey(fn, name)); // no Job, no slot: the next pass asks again
        throw e;
      }
    }
    Job job = found.get();
    if (succeeded(job)) {
      queue.finished(jobKey(job));
      pass.condition(BUILD_READY, "True", JOB_FINISHED, built);
      if (pass.record(build.key(), build.image(), FunctionPass.SUCCEEDED) && firstCount(job)) {
        succeededBuilds.increment(); // once per finished Job: the next pass finds the key known good
      }
      return true;
    }
    if (failed(job)) {
      queue.finished(jobKey(job));
      String why = deadlineExceeded(job)
          ? ": it ran longer than the build deadline of " + GoDuration.format(settings.deadline())
              + " (--build-deadline) and was stopped"
          : terminationMessage(job).map(m -> ": " + m).orElse("");
      pass.condition(BUILD_READY, "False", JOB_FAILED, "Job " + name + " failed" + why
          + "; the running version stays. Fix the source, or run `gitfn reconcile function "
          + fn.getMetadata().getName() + "` to build it again");
      if (pass.record(build.key(), build.image(), FunctionPass.FAILED) && firstCount(job)) {
        failedBuilds.increment(); // once per failed Job: later passes find the same newest history entry
      }
      return false;
    }
    queue.running(owner(fn), jobKey(job));
    pass.condition(BUILD_READY, "Unknown", JOB_RUNNING, "Job " + name + " builds " + build.image());
    pass.retryWithin(WAITING);
    return false;
  }

  /**
   * Deletes the finished Jobs, and their context ConfigMaps, of every key but {@code current}: the history keeps
   * what they built, and the image stays in the registry. The current key's Job stays, for its logs.
   */
  void cleanUp(Collection<Job> jobs, ContentKey current) {
    for (Job job : jobs) {
      String key = job.getMetadata().getLabels() == null ? null
          : job.getMetadata().getLabels().get(Labels.CONTENT_KEY);
      if (!current.tag().equals(key) && (succeeded(job) || failed(job))) {
        delete(job);
      }
    }
  }

  /** A deleted Function: its place in the queue and the slots of its Jobs, which Kubernetes collects, go. */
  void forget(Function fn) {
    queue.forget(owner(fn));
  }

  /**
   * Keeps the queue's count right: Jobs that finished or vanished free their slots, and Jobs running since before a
   * restart take theirs.
   *
   * @param current the Job of the current key as the API server has it, which the informer may not have seen yet
   */
  private void account(Function fn, Collection<Job> jobs, Optional<Job> current) {
    Set<String> live = new HashSet<>();
    for (Job job : jobs) {
      if (succeeded(job) || failed(job)) {
        queue.finished(jobKey(job));
      } else {
        queue.running(owner(fn), jobKey(job));
        live.add(jobKey(job));
      }
    }
    current.filter(job -> !succeeded(job) && !failed(job)).ifPresent(job -> live.add(jobKey(job)));
    queue.settle(owner(fn), live);
  }

  /**
   * The Job of this name: from the informer, or from the API server when the informer may not have seen it yet. A
   * build still waiting in the queue has no Job, so thousands of queued Functions ask the server nothing.
   */
  private Optional<Job> find(Function fn, String name, Collection<Job> jobs) {
    Optional<Job> cached = jobs.stream().filter(j -> j.getMetadata().getName().equals(name)).findFirst();
    // A failed Job in the cache may already be deleted and made again under the same name: ask the server.
    if (cached.isPresent() && !failed(cached.get())) {
      return cached;
    }
    if (cached.isEmpty() && queue.waits(owner(fn), jobKey(fn, name))) {
      return Optional.empty();
    }
    return Optional.ofNullable(client.batch().v1().jobs().inNamespace(fn.getMetadata().getNamespace())
        .withName(name).get());
  }

  private Job start(Function fn, FunctionBuildPlan build, String name) {
    apply(ContextConfigMapSpec.forFunction(fn, build.key(), build.context()));
    Job job = BuildJobSpec.forFunction(fn, build.key(), name, settings);
    Annotations.get(fn, Annotations.REQUESTED_AT).ifPresent(value -> {
      Map<String, String> annotations = new java.util.LinkedHashMap<>();
      if (job.getMetadata().getAnnotations() != null) {
        annotations.putAll(job.getMetadata().getAnnotations());
      }
      annotations.put(Annotations.REQUESTED_AT, value);
      job.getMetadata().setAnnotations(annotations);
    });
    return apply(job);
  }

  private void delete(Job job) {
    String namespace = job.getMetadata().getNamespace();
    client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName())
        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
    client.configMaps().inNamespace(namespace).withName(job.getMetadata().getName()).delete();
    queue.finished(jobKey(job));
  }

  /** The builder's push Secret, decoded; none when it is missing, so the lookup goes anonymous. */
  private Map<String, String> registrySecret(Function fn) {
    io.fabric8.kubernetes.api.model.Secret secret = client.secrets().inNamespace(fn.getMetadata().getNamespace())
        .withName(settings.registrySecret()).get();
    try {
      return SecretData.of(secret);
    } catch (IllegalArgumentException e) {
      return Map.of(); // a broken push Secret fails the build, with the builder's message; the lookup goes anonymous
    }
  }

  /**
   * Names are unique per Function and key ({@link BuildJobSpec#name}) up to a 24-bit hash of a shortened name; a
   * Job that says it is another Function's, a brute-forced collision or a hand-made Job, never lends its image.
   * A Function deleted and made again under its name keeps using the Job it left, as the image is the same.
   */
  private static boolean ownedBy(Function fn, Job job) {
    return fn.getMetadata().getName().equals(label(job, Labels.FUNCTION_NAME));
  }

  private static String owners(Job job) {
    String function = label(job, Labels.FUNCTION_NAME);
    return function == null ? "it has no " + Labels.FUNCTION_NAME + " label" : "Function " + function;
  }

  private static String label(Job job, String key) {
    return job.getMetadata().getLabels() == null ? null : job.getMetadata().getLabels().get(key);
  }

  /** A failed Job is built again when the Function holds a request the Job was not made for. */
  private static boolean retryRequested(Function fn, Job job) {
    Optional<String> requested = Annotations.get(fn, Annotations.REQUESTED_AT);
    return requested.isPresent() && !requested.equals(Annotations.get(job, Annotations.REQUESTED_AT));
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

  private Optional<String> terminationMessage(Job job) {
    List<Pod> pods = client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel("job-name", job.getMetadata().getName()).list().getItems();
    return pods.stream()
        .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
        .flatMap(p -> p.getStatus().getContainerStatuses().stream())
        .map(ContainerStatus::getState)
        .filter(s -> s != null && s.getTerminated() != null)
        .map(s -> s.getTerminated())
        .map(ContainerStateTerminated::getMessage)
        .filter(m -> m != null && !m.isBlank())
        .map(String::strip)
        .findFirst();
  }

  private static String owner(Function fn) {
    return fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }

  private static String jobKey(Function fn, String name) {
    return fn.getMetadata().getNamespace() + "/" + name;
  }

  private static String jobKey(Job job) {
    return jobKey(Objects.requireNonNull(job.getMetadata().getNamespace()), job.getMetadata().getName());
  }

  private static String jobKey(String namespace, String name) {
    return namespace + "/" + name;
  }

  private <T extends HasMetadata> T apply(T desired) {
    return client.resource(desired).fieldManager(FieldManagers.FUNCTION_CONTROLLER).forceConflicts()
        .serverSideApply();
  }

  private boolean firstCount(Job job) {
    String uid = job.getMetadata().getUid();
    return uid == null || counted.putIfAbsent(uid, Boolean.TRUE) == null;
  }

  /** {@code gitfn_builds_total{result}}: build Jobs that finished, counted when a pass first sees them finished. */
  private static Counter builds(MeterRegistry meters, String result) {
    return Counter.builder("gitfn.builds").description("Build Jobs that finished, by result")
        .tag("result", result).register(meters);
  }
}
