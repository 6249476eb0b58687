package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.JOB_FAILED;
import static io.gitfn.api.function.ConditionReason.JOB_FINISHED;
import static io.gitfn.api.function.ConditionReason.JOB_QUEUED;
import static io.gitfn.api.function.ConditionReason.JOB_RUNNING;
import static io.gitfn.api.function.ConditionType.BUILD_READY;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.ImageBuilder;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.reconcile.registry.RegistryLookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Guarantees that the image of the plan's content key exists, and says so in BuildReady; then the plan's release
 * is the desired one. A key with a Succeeded or Reused history entry, or a completed Job, needs no build, and neither
 * does an image the registry already has when the lookup is on. Otherwise the build waits for a slot in the
 * cluster-wide queue ({@link BuildSlots}), then the context ConfigMap and the Job are created and BuildReady follows
 * the Job. A failed Job leaves the running Deployment as it is; a new {@code gitfn.io/requested-at} on the Function
 * builds it again. Not for a pinned Function, one in buildless mode, or the layered builder's
 * ({@link LayeredImageStep}).
 */
final class ImageStep implements FunctionStep {

  private final BuildJobs jobs;
  private final BuildSettings settings;
  private final BuildSlots slots;
  private final RegistryLookup registry;
  private final WakeUps<Function> wakeUps;
  private final Counter succeededBuilds;
  private final Counter failedBuilds;
  /**
   * The finished Jobs already counted, by UID. Two passes that start from a cached Function whose status lacks the
   * Job's history entry both record it; the counters must not count it twice. Bounded: only recent Jobs can race.
   * After a restart, a Job that finished before it and is first seen after is counted once more.
   */
  private final Map<String, Boolean> counted = Collections.synchronizedMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > 4096;
    }
  });

  ImageStep(BuildJobs jobs, BuildSettings settings, BuildSlots slots, RegistryLookup registry,
      WakeUps<Function> wakeUps, MeterRegistry meters) {
    this.jobs = jobs;
    this.settings = settings;
    this.slots = slots;
    this.registry = registry;
    this.wakeUps = wakeUps;
    this.succeededBuilds = builds(meters, "succeeded");
    this.failedBuilds = builds(meters, "failed");
  }

  @Override
  public String condition() {
    return BUILD_READY;
  }

  @Override
  public Result run(FunctionState state) {
    Optional<FunctionBuildPlan> plan = state.plan();
    if (state.pin() != null || plan.isEmpty() || settings.modeOf(state.fn()) == BuildMode.BUILDLESS
        || settings.builder().tool() == ImageBuilder.Tool.LAYERED) {
      return Result.next();
    }
    FunctionBuildPlan build = plan.get();
    if (ensure(state, build)) {
      state.desired(Optional.of(new Release(build.key(), build.image())));
    }
    return Result.next();
  }

  private boolean ensure(FunctionState state, FunctionBuildPlan build) {
    Function fn = state.fn();
    BuildQueue queue = slots.queue();
    String built = "image " + build.image() + " is built";
    if (state.knownGood(build.key(), build.image())) {
      account(queue, fn, state.jobs(), Optional.empty());
      queue.withdraw(owner(fn));
      state.condition(BUILD_READY, "True", JOB_FINISHED, built);
      return true;
    }
    String name = BuildJobSpec.name(fn, build.key());
    Optional<Job> found = jobs.find(fn, name, state.jobs(), queue.waits(owner(fn), jobKey(fn, name)));
    if (found.isPresent() && !BuildJobs.ownedBy(fn, found.get())) {
      state.condition(BUILD_READY, "False", JOB_FAILED, "Job " + name + " is not this Function's ("
          + BuildJobs.owners(found.get()) + "); gitfn does not run an image another Function's Job built. Delete"
          + " that Job, or rename one of the Functions");
      return false;
    }
    account(queue, fn, state.jobs(), found);
    if (found.isPresent() && BuildJobs.failed(found.get()) && retryRequested(fn, found.get())) {
      jobs.delete(found.get()); // its deletion wakes the Function, whose next pass queues the build again
      queue.finished(jobKey(found.get()));
      state.condition(BUILD_READY, "Unknown", JOB_QUEUED, "building " + build.image() + " again, as requested");
      return false;
    }
    if (found.isEmpty()) {
      BuildQueue.Admission admission = queue.admit(owner(fn), jobKey(fn, name),
          () -> wakeUps.wake(fn.getMetadata().getNamespace(), fn.getMetadata().getName()));
      if (!admission.started()) {
        state.condition(BUILD_READY, "Unknown", JOB_QUEUED, build.image() + " is " + admission.describe());
        return false;
      }
      // Asked once per build attempt, after the slot: a Function waiting in the queue asks nothing.
      if (registry.enabled() && registry.check(build.image(), jobs.registrySecret(fn)).exists()) {
        queue.finished(jobKey(fn, name));
        state.condition(BUILD_READY, "True", JOB_FINISHED, "image " + build.image() + " is already in the registry");
        state.record(build.key(), build.image(), FunctionState.REUSED);
        return true;
      }
      try {
        found = Optional.of(jobs.start(fn, build, name));
      } catch (RuntimeException e) {
        queue.finished(jobKey(fn, name)); // no Job, no slot: the next pass asks again
        throw e;
      }
    }
    return follow(state, build, found.get(), queue);
  }

  /** BuildReady as the Job says: built, failed with why, or running. */
  private boolean follow(FunctionState state, FunctionBuildPlan build, Job job, BuildQueue queue) {
    Function fn = state.fn();
    String name = job.getMetadata().getName();
    if (BuildJobs.succeeded(job)) {
      queue.finished(jobKey(job));
      state.condition(BUILD_READY, "True", JOB_FINISHED, "image " + build.image() + " is built");
      if (state.record(build.key(), build.image(), FunctionState.SUCCEEDED) && firstCount(job)) {
        succeededBuilds.increment(); // once per finished Job: the next pass finds the key known good
      }
      return true;
    }
    if (BuildJobs.failed(job)) {
      queue.finished(jobKey(job));
      String why = jobs.whyFailed(job);
      state.condition(BUILD_READY, "False", JOB_FAILED, "Job " + name + " failed" + why
          + "; the running version stays. Fix the source, or run `gitfn reconcile function "
          + fn.getMetadata().getName() + "` to build it again");
      if (state.record(build.key(), build.image(), FunctionState.FAILED) && firstCount(job)) {
        failedBuilds.increment(); // once per failed Job: later passes find the same newest history entry
      }
      return false;
    }
    queue.running(owner(fn), jobKey(job));
    state.condition(BUILD_READY, "Unknown", JOB_RUNNING, "Job " + name + " builds " + build.image()
        + jobs.holdUp(job, state.now()).map(why -> "; " + why).orElse(""));
    state.requeueWithin(Requeue.FUNCTION_WAITING); // a safety net: the Job informer wakes the Function
    return false;
  }

  /**
   * Keeps the queue's count right: Jobs that finished or vanished free their slots, and Jobs running since before a
   * restart take theirs.
   *
   * @param current the Job of the current key as the API server has it, which the informer may not have seen yet
   */
  static void account(BuildQueue queue, Function fn, Collection<Job> cached, Optional<Job> current) {
    Set<String> live = new HashSet<>();
    for (Job job : cached) {
      if (BuildJobs.succeeded(job) || BuildJobs.failed(job)) {
        queue.finished(jobKey(job));
      } else {
        queue.running(owner(fn), jobKey(job));
        live.add(jobKey(job));
      }
    }
    current.filter(job -> !BuildJobs.succeeded(job) && !BuildJobs.failed(job)).ifPresent(job -> live.add(jobKey(job)));
    queue.settle(owner(fn), live);
  }

  /** A failed Job is built again when the Function holds a request the Job was not made for. */
  static boolean retryRequested(Function fn, Job job) {
    Optional<String> requested = Annotations.get(fn, Annotations.REQUESTED_AT);
    return requested.isPresent() && !requested.equals(Annotations.get(job, Annotations.REQUESTED_AT));
  }

  static String owner(Function fn) {
    return fn.getMetadata().getNamespace() + "/" + fn.getMetadata().getName();
  }

  static String jobKey(Function fn, String name) {
    return fn.getMetadata().getNamespace() + "/" + name;
  }

  private static String jobKey(Job job) {
    return Objects.requireNonNull(job.getMetadata().getNamespace()) + "/" + job.getMetadata().getName();
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
