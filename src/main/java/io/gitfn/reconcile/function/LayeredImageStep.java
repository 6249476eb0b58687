package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.IMAGE_ASSEMBLING;
import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.JOB_FAILED;
import static io.gitfn.api.function.ConditionReason.JOB_QUEUED;
import static io.gitfn.api.function.ConditionReason.JOB_RUNNING;
import static io.gitfn.api.function.ConditionReason.LAYERS_REUSED;
import static io.gitfn.api.function.ConditionReason.REGISTRY_FAILED;
import static io.gitfn.api.function.ConditionType.BUILD_READY;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.gitfn.api.GoDuration;
import io.gitfn.api.Annotations;
import io.gitfn.api.Labels;
import io.gitfn.api.function.BuildMode;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionHistoryEntry;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildContextTooLargeException;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.PackageRegistrySettings;
import io.gitfn.build.RuntimeFiles;
import io.gitfn.reconcile.Requeue;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.function.LayeredImages.Progress;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.registry.FunctionImages;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryCredentials;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The layered builder's BuildReady (docs/functions.md#layered-images): the image of the plan's content key is the
 * dependency image its dependencies key names, with the Function's source as one more layer, assembled in-process
 * ({@link LayeredImages}) and named by digest. A handler-only change starts no Pod; a dependency change first runs
 * the install Job that makes the dependency image, one per namespace and key ({@link BuildJobs#startInstall}), through
 * the cluster-wide build queue. A key the history holds by digest (a revert) needs neither.
 *
 * <p>A registry that fails or refuses says so in BuildReady False while the running version stays, and is asked
 * again {@link LayeredImages#RETRY_AFTER} later. Pushes go only to the controller's {@code --registry}, below the
 * Function's namespace, with the namespace's own push Secret.
 */
final class LayeredImageStep implements FunctionStep {

  private final BuildJobs jobs;
  private final BuildSettings settings;
  private final BuildSlots slots;
  private final LayeredImages images;
  private final WakeUps<Function> wakeUps;
  private final SecretReader secrets;
  private final Counter succeededInstalls;
  private final Counter failedInstalls;
  /**
   * The UIDs of install Jobs counted as finished, so each counts once however many passes see it. Lost on a restart,
   * as Micrometer's counters are, so a new process counts again the Jobs it finds finished.
   */
  private final Map<String, Boolean> counted = new ConcurrentHashMap<>();

  /** Reads a Secret's data in the Function's namespace; empty when it is missing. */
  interface SecretReader {
    /** @throws IllegalArgumentException when a value is not base64 */
    Map<String, String> read(String namespace, String name);
  }

  LayeredImageStep(BuildJobs jobs, BuildSettings settings, BuildSlots slots, LayeredImages images,
      WakeUps<Function> wakeUps, SecretReader secrets, MeterRegistry meters) {
    this.jobs = jobs;
    this.settings = settings;
    this.slots = slots;
    this.images = images;
    this.wakeUps = wakeUps;
    this.secrets = secrets;
    this.succeededInstalls = builds(meters, "succeeded");
    this.failedInstalls = builds(meters, "failed");
  }

  @Override
  public String condition() {
    return BUILD_READY;
  }

  @Override
  public Result run(FunctionState state) throws StepFailure {
    Optional<FunctionBuildPlan> plan = state.plan();
    if (state.pin() != null || plan.isEmpty() || settings.modeOf(state.fn()) == BuildMode.BUILDLESS) {
      return Result.next();
    }
    FunctionBuildPlan build = plan.get();
    Optional<String> image = ensure(state, build);
    image.ifPresent(pinned -> state.desired(Optional.of(new Release(build.key(), pinned))));
    return Result.next();
  }

  /** The image by digest once it is in the registry; empty while it is not. */
  private Optional<String> ensure(FunctionState state, FunctionBuildPlan build) throws StepFailure {
    Function fn = state.fn();
    // Whichever way this pass goes, a Job of the Function's that finished frees its slot: its image may be known
    // already (a push that landed before its Pod ended, a Job found running after a restart), and then no pass
    // of this Function follows the Job again.
    releaseFinished(slots.queue(), state.jobs().stream().filter(job -> BuildJobs.ownedBy(fn, job)).toList());
    Optional<FunctionHistoryEntry> known = state.knownGoodEntry(build.key(), build.image())
        .filter(entry -> entry.getImage().contains("@sha256:"));
    if (known.isPresent()) {
      String image = known.get().getImage();
      slots.queue().withdraw(owner(fn));
      images.forget(fn); // the history holds the push now
      // The pass that pushed it said how (bytes uploaded, layers reused); that stays until the key moves, rather
      // than a second status write to say less.
      boolean said = state.draft().condition(BUILD_READY).filter(c -> "True".equals(c.getStatus())
          && LAYERS_REUSED.equals(c.getReason()) && c.getMessage() != null
          && c.getMessage().startsWith("image " + image + " ")).isPresent();
      if (!said) {
        state.condition(BUILD_READY, "True", LAYERS_REUSED, "image " + image + " is in the registry");
      }
      return Optional.of(image);
    }
    Optional<Progress> progress = images.progress(fn, build.key());
    if (progress.isEmpty()) {
      start(state, build);
      return Optional.empty();
    }
    if (progress.get() instanceof Progress.Pushed pushed) {
      state.condition(BUILD_READY, "True", LAYERS_REUSED, "image " + pushed.image() + " assembled from layers the"
          + " registry holds, with no build Pod: " + pushed.push().bytesUploaded() + " bytes uploaded, "
          + (pushed.push().blobsMounted() + pushed.push().blobsPresent()) + " layers reused");
      state.record(build.key(), pushed.image(), FunctionState.SUCCEEDED);
      return Optional.of(pushed.image());
    }
    if (progress.get() instanceof Progress.Failed failed) {
      state.condition(BUILD_READY, "False", REGISTRY_FAILED, failed.message() + "; the running version stays, and"
          + " gitfn asks the registry again in " + GoDuration.format(LayeredImages.RETRY_AFTER));
      state.requeueWithin(LayeredImages.RETRY_AFTER);
      return Optional.empty();
    }
    if (progress.get() instanceof Progress.Refused refused) {
      state.record(build.key(), build.image(), FunctionState.FAILED);
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, refused.message() + "; the running version stays");
    }
    if (progress.get() instanceof Progress.NeedsDependencies needs) {
      install(state, build, needs);
      return Optional.empty();
    }
    state.condition(BUILD_READY, "Unknown", IMAGE_ASSEMBLING, "assembling " + build.image()
        + " from the layers in the registry");
    return Optional.empty();
  }

  /** Asks for the image's layers, and pushes it when they are there; the outcome wakes the Function. */
  private void start(FunctionState state, FunctionBuildPlan build) throws StepFailure {
    Function fn = state.fn();
    images.start(fn, build.key(), request(fn, build), access(fn), wakeUps::wake);
    state.condition(BUILD_READY, "Unknown", IMAGE_ASSEMBLING, "assembling " + build.image()
        + " from the layers in the registry");
  }

  /** Follows the install Job of the missing dependency image, starting it when there is none. */
  private void install(FunctionState state, FunctionBuildPlan build, Progress.NeedsDependencies needs)
      throws StepFailure {
    Function fn = state.fn();
    BuildQueue queue = slots.queue();
    String owner = owner(fn);
    String name = DependencyInstallJob.name(needs.dependencyImage().reference());
    String jobKey = jobKey(fn, name);
    List<Job> own = state.jobs().stream().filter(job -> BuildJobs.ownedBy(fn, job)).toList();
    Optional<Job> found = jobs.find(fn, name, state.jobs(), queue.waits(owner, jobKey));
    account(queue, fn, own, found.filter(job -> BuildJobs.ownedBy(fn, job)));
    if (found.isPresent() && BuildJobs.failed(found.get()) && retryRequested(fn, found.get())) {
      jobs.delete(found.get()); // its deletion wakes the Function, whose next pass starts it again
      queue.finished(jobKey);
      state.condition(BUILD_READY, "Unknown", JOB_QUEUED, "installing the dependencies of " + build.image()
          + " again, as requested");
      return;
    }
    if (found.isEmpty()) {
      BuildQueue.Admission admission = queue.admit(owner, jobKey,
          () -> wakeUps.wake(fn.getMetadata().getNamespace(), fn.getMetadata().getName()));
      if (!admission.started()) {
        state.condition(BUILD_READY, "Unknown", JOB_QUEUED, "the dependencies of " + build.image() + " are "
            + admission.describe());
        return;
      }
      try {
        found = Optional.of(jobs.startInstall(fn, build, name, needs));
      } catch (BuildContextTooLargeException e) {
        queue.finished(jobKey);
        throw StepFailure.stalled(INVALID_FUNCTION_SPEC, e.getMessage());
      } catch (RuntimeException e) {
        queue.finished(jobKey); // no Job, no slot: the next pass asks again
        throw e;
      }
    } else if (!BuildJobs.ownerOf(fn, found.get())) {
      found = Optional.of(jobs.shareWith(fn, found.get())); // its moves wake this Function from now on
    }
    Job job = found.get();
    Optional<Instant> packed = InstallPods.packedAt(state.installPods(), job);
    if (BuildJobs.succeeded(job) || packed.isPresent()) {
      if (BuildJobs.succeeded(job)) {
        // A Job whose Pod has packed keeps its slot until the Job controller marks it complete, so that the cap
        // holds for the Jobs a user sees running; the Job's completion wakes this Function to free it.
        queue.finished(jobKey);
      }
      if (firstCount(job)) {
        succeededInstalls.increment();
      }
      if (finishedBefore(completion(job).or(() -> packed), needs.askedAt())) {
        // The registry was asked after the Job ended and still lacks the image: asking at once would loop.
        images.fail(fn, build.key(), "Job " + name + " succeeded, but registry " + needs.dependencyImage().registry()
            + " has no " + needs.dependencyImage());
        state.condition(BUILD_READY, "False", REGISTRY_FAILED, "Job " + name + " succeeded, but the registry has no "
            + needs.dependencyImage() + "; the running version stays, and gitfn asks the registry again in "
            + GoDuration.format(LayeredImages.RETRY_AFTER));
        state.requeueWithin(LayeredImages.RETRY_AFTER);
        return;
      }
      images.forget(fn);
      start(state, build);
      return;
    }
    if (BuildJobs.failed(job)) {
      queue.finished(jobKey);
      if (firstCount(job)) {
        failedInstalls.increment();
      }
      String why = jobs.whyFailed(job);
      state.condition(BUILD_READY, "False", JOB_FAILED, "Job " + name + ", which installs the dependencies of "
          + build.image() + ", failed" + why + "; the running version stays. Fix the dependencies, or run `gitfn"
          + " reconcile function " + fn.getMetadata().getName() + "` to install them again");
      state.record(build.key(), build.image(), FunctionState.FAILED);
      return;
    }
    if (BuildJobs.ownedBy(fn, job)) {
      queue.running(owner, jobKey);
    }
    state.condition(BUILD_READY, "Unknown", JOB_RUNNING, "Job " + name + " installs the dependencies of "
        + build.image() + " into " + needs.dependencyImage() + jobs.holdUp(job, state.now()).map(why -> "; " + why).orElse(""));
    state.requeueWithin(Requeue.FUNCTION_WAITING); // a safety net: the Job informer wakes the Function
  }

  /** What the image is made of ({@link FunctionImages.Request#of}), with the namespace's package-registry config. */
  private FunctionImages.Request request(Function fn, FunctionBuildPlan build) throws StepFailure {
    FunctionRuntime runtime = fn.getSpec().getRuntime();
    String registrySettings;
    try {
      registrySettings = settings.packageRegistrySecret() == null ? ""
          : PackageRegistrySettings.digest(runtime, secrets.read(FunctionBuildPlan.imageNamespace(fn),
              settings.packageRegistrySecret()).get(RuntimeFiles.of(runtime).packageRegistryConfig()));
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, "Secret " + settings.packageRegistrySecret() + ": "
          + e.getMessage()).lookingAgainAfter(Duration.ofMinutes(1));
    }
    try {
      return FunctionImages.Request.of(fn, build, settings, registrySettings);
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, e.getMessage());
    }
  }

  /** The namespace's push Secret's credentials; anonymous without one, as the registry may allow. */
  private RegistryAccess access(Function fn) throws StepFailure {
    try {
      String config = secrets.read(FunctionBuildPlan.imageNamespace(fn), settings.registrySecret())
          .get(RegistryCredentials.DOCKER_CONFIG_KEY);
      if (config == null) {
        return RegistryAccess.anonymous(settings.insecureRegistries());
      }
      return RegistryAccess.ofDockerConfig(config, settings.insecureRegistries());
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, "Secret " + settings.registrySecret() + " in namespace "
          + FunctionBuildPlan.imageNamespace(fn) + ": " + e.getMessage()).lookingAgainAfter(Duration.ofMinutes(1));
    }
  }

  /**
   * Whether the install ended a whole second before the registry was asked: the API's times are whole seconds, so
   * an end in the same second as the question may have come after it.
   */
  private static boolean finishedBefore(Optional<Instant> ended, Instant asked) {
    return ended.isPresent() && !ended.get().plusSeconds(1).isAfter(asked);
  }

  private static Optional<Instant> completion(Job job) {
    String completed = job.getStatus() == null ? null : job.getStatus().getCompletionTime();
    try {
      return Optional.ofNullable(completed).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  static boolean isInstallJob(Job job) {
    return DependencyInstallJob.RESOURCE.equals(BuildJobs.label(job, Labels.RESOURCE));
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

  /** Frees the slots of {@code jobs} that finished; those still running keep theirs. */
  static void releaseFinished(BuildQueue queue, Collection<Job> jobs) {
    jobs.stream().filter(job -> BuildJobs.succeeded(job) || BuildJobs.failed(job))
        .forEach(job -> queue.finished(jobKey(job)));
  }

  /** A failed Job runs again when the Function holds a request the Job was not made for. */
  static boolean retryRequested(Function fn, Job job) {
    Optional<String> requested = Annotations.get(fn, Annotations.REQUESTED_AT);
    return requested.isPresent() && !requested.equals(Annotations.get(job, Annotations.REQUESTED_AT));
  }

  /** Who holds slots in the build queue: the Function, by namespace and name. */
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

  /** {@code gitfn_builds_total{result}}: install Jobs that finished, counted when a pass first sees them finished. */
  private static Counter builds(MeterRegistry meters, String result) {
    return Counter.builder("gitfn.builds").description("Install Jobs that finished, by result")
        .tag("result", result).register(meters);
  }
}
