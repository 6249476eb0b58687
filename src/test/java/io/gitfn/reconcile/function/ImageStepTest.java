package io.gitfn.reconcile.function;

import static io.gitfn.reconcile.function.Passes.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildJobSpec;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ImageBuilder;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.reconcile.registry.RegistryLookup;
import io.gitfn.reconcile.registry.RegistryLookupSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The image of the plan's content key exists, and BuildReady says so; then the plan's release is the desired one.
 * A key whose history says it was built needs no build, no slot and no Job. Not for a pinned Function, nor one in
 * buildless mode. Jobs are given no client here: a step that asked the API server for one would fail. Building,
 * following a Job and the registry lookup are FunctionControllerIT's, BuildQueueIT's and RegistryLookupIT's.
 */
class ImageStepTest {

  // The build-Job builder; the default, layered, is LayeredImageStepTest's.
  private static final BuildSettings BUILDS = BuildSettings.defaults().withBuilder(ImageBuilder.of(ImageBuilder.Tool.BUILDAH));

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void aKeyWithASucceededEntryNeedsNoBuildAndItsReleaseIsTheDesiredOne() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));
    FunctionState state = planned(fn, plan);
    BuildQueue queue = new BuildQueue(BUILDS.concurrency());

    Result result = step(queue).run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.draft().condition("BuildReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("JobFinished");
      assertThat(c.getMessage()).isEqualTo("image " + plan.image() + " is built");
    });
    assertThat(state.desired()).contains(new Release(plan.key(), plan.image()));
    assertThat(queue.runningCount()).as("no slot taken").isZero();
    assertThat(queue.depth()).as("nothing waits").isZero();
    assertThat(state.history()).as("nothing new to record").hasSize(1);
    assertThat(meters.counter("gitfn.builds", "result", "succeeded").count()).as("no build counted").isZero();
  }

  @Test
  void aKeyReusedFromTheRegistryCountsAsBuilt() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Reused", null));
    FunctionState state = planned(fn, plan);

    step(new BuildQueue(BUILDS.concurrency())).run(state);

    assertThat(state.draft().condition("BuildReady")).hasValueSatisfying(c ->
        assertThat(c.getStatus()).isEqualTo("True"));
    assertThat(state.desired()).contains(new Release(plan.key(), plan.image()));
  }

  @Test
  void aFunctionWhoseImageTurnsOutBuiltGivesUpItsPlaceInTheQueue() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    BuildQueue queue = new BuildQueue(1);
    queue.running("team/billing", "team/billing-build-1");
    String job = "shop/" + BuildJobSpec.name(fn, plan.key());
    assertThat(queue.admit("shop/orders", job, () -> { }).started()).isFalse();
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));

    step(queue).run(planned(fn, plan));

    assertThat(queue.waits("shop/orders", job)).isFalse();
    assertThat(queue.depth()).isZero();
  }

  @Test
  void theSlotsOfItsFinishedJobsAreFreedAndItsRunningOnesCounted() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));
    BuildQueue queue = new BuildQueue(BUILDS.concurrency());
    queue.running("shop/orders", "shop/orders-build-old");
    FunctionState state = Passes.of(fn, List.of(job("orders-build-old", 1), job("orders-build-other", 0)));
    state.plan(plan);

    step(queue).run(state);

    assertThat(queue.runningCount()).as("the finished Job's slot is free; the running one holds its own")
        .isEqualTo(1);
  }

  @Test
  void aPinnedFunctionIsNotBuilt() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionState state = planned(fn, FunctionBuildPlan.ofInline(fn, BUILDS));
    state.pin("main@sha1:" + "c".repeat(40));
    BuildQueue queue = new BuildQueue(BUILDS.concurrency());

    Result result = step(queue).run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.desired()).isEmpty();
    assertThat(state.draft().condition("BuildReady")).as("the pin says what runs").isEmpty();
    assertThat(queue.depth()).isZero();
  }

  @Test
  void aBuildlessFunctionIsNotTheImageStepsToBuild() throws Exception {
    Function fn = TestFunction.inline().metadataAnnotation(Annotations.BUILD_MODE, "buildless").build();
    FunctionState state = planned(fn, FunctionBuildPlan.ofInline(fn, BUILDS));

    step(new BuildQueue(BUILDS.concurrency())).run(state);

    assertThat(state.desired()).isEmpty();
    assertThat(state.draft().condition("BuildReady")).isEmpty();
  }

  @Test
  void withoutAPlanThereIsNothingToBuild() {
    FunctionState state = Passes.of(TestFunction.inline().build());

    Result result = step(new BuildQueue(BUILDS.concurrency())).run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.desired()).isEmpty();
    assertThat(state.draft().condition("BuildReady")).isEmpty();
  }

  private ImageStep step(BuildQueue queue) {
    BuildSlots slots = new BuildSlots(queue);
    slots.countFrom(Stream::empty); // the Job informer holds no Job
    return new ImageStep(new BuildJobs(null, BUILDS), BUILDS, slots,
        new RegistryLookup(RegistryLookupSettings.disabled()), new WakeUps<>("functions"), meters);
  }

  private static FunctionState planned(Function fn, FunctionBuildPlan plan) {
    FunctionState state = Passes.of(fn);
    state.plan(plan);
    return state;
  }

  /** A build Job of orders in shop, finished when {@code succeeded} is 1, running when 0. */
  private static Job job(String name, int succeeded) {
    return new JobBuilder().withNewMetadata().withName(name).withNamespace("shop").endMetadata()
        .withNewStatus().withSucceeded(succeeded).withActive(1 - succeeded).endStatus().build();
  }
}
