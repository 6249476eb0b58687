package io.gitfn.reconcile.function;

import static io.gitfn.reconcile.function.Passes.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.MutableClock;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildQueue;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.ImageBuilder;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.WakeUps;
import io.gitfn.reconcile.function.Rollout.Release;
import io.gitfn.testbed.FreePorts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layered builder's BuildReady without a cluster. A key the history holds by digest rolls out with no registry
 * request; one it holds only by tag (a build Job's image) is assembled again, so that every Deployment names a
 * digest. A registry that cannot be reached turns BuildReady False with its answer, and is asked again only after
 * the retry delay; a source over the layer's cap is refused before any registry is asked. Assembling, install Jobs and real registries are LayeredBuilderIT's and
 * RealNodeLayeredE2E's.
 */
class LayeredImageStepTest {

  private static final String DIGEST = "@sha256:" + "a".repeat(64);

  private final MutableClock clock = new MutableClock(Passes.NOW);

  @Test
  void aFinishedJobFreesItsSlotEvenOnAPassThatNeedsNoInstallAndARunningOneKeepsIt() {
    BuildQueue queue = new BuildQueue(2);
    queue.running("shop/orders", "shop/gitfn-deps-done");
    queue.running("shop/orders", "shop/gitfn-deps-running");
    Job done = new JobBuilder().withNewMetadata().withName("gitfn-deps-done").withNamespace("shop").endMetadata()
        .withNewStatus().withSucceeded(1).endStatus().build();
    Job running = new JobBuilder().withNewMetadata().withName("gitfn-deps-running").withNamespace("shop")
        .endMetadata().withNewStatus().withActive(1).endStatus().build();

    LayeredImageStep.releaseFinished(queue, List.of(done, running));

    assertThat(queue.runningCount()).as("the running Job's slot only").isEqualTo(1);
  }

  @Test
  void aKeyTheHistoryHoldsByDigestRollsOutWithNoRegistryRequest() throws Exception {
    try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      BuildSettings builds = layered("127.0.0.1:" + unused.getLocalPort());
      Function fn = TestFunction.inline().build();
      FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
      Passes.withHistory(fn, entry(plan.key(), plan.image() + DIGEST, "inline", "Succeeded", null));
      FunctionState state = planned(fn, plan);
      LayeredImages images = new LayeredImages(Duration.ofSeconds(5), clock);

      step(builds, images).run(state);

      assertThat(state.desired()).contains(new Release(plan.key(), plan.image() + DIGEST));
      assertThat(state.draft().condition("BuildReady")).hasValueSatisfying(c -> {
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo("LayersReused");
      });
      assertThat(images.progress(fn, plan.key())).as("nothing started").isEmpty();
    }
  }

  @Test
  void whatThePushingPassSaidStaysOnTheNextPassWithNoSecondStatusWrite() throws Exception {
    BuildSettings builds = layered("registry.example.com:5000");
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
    Passes.withHistory(fn, entry(plan.key(), plan.image() + DIGEST, "inline", "Succeeded", null));
    String pushed = "image " + plan.image() + DIGEST + " assembled from layers the registry holds, with no build Pod:"
        + " 2225 bytes uploaded, 9 layers reused";
    fn.getStatus().setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType("BuildReady")
        .withStatus("True").withReason("LayersReused").withMessage(pushed).build())));
    FunctionState state = planned(fn, plan);

    step(builds, new LayeredImages(Duration.ofSeconds(5), clock)).run(state);

    assertThat(state.draft().condition("BuildReady")).hasValueSatisfying(c ->
        assertThat(c.getMessage()).isEqualTo(pushed));
    assertThat(state.desired()).contains(new Release(plan.key(), plan.image() + DIGEST));
  }

  @Test
  void aRegistryThatCannotBeReachedFailsBuildReadyAndIsAskedAgainOnlyAfterTheRetryDelay() throws Exception {
    String closed = FreePorts.closedAddress();
    BuildSettings builds = layered(closed);
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, builds);
    // Built by a Job before: a tag, no digest. The layered builder assembles it again.
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));
    LayeredImages images = new LayeredImages(Duration.ofMillis(500), clock);
    LayeredImageStep step = step(builds, images);

    FunctionState first = planned(fn, plan);
    step.run(first);
    assertThat(first.draft().condition("BuildReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("Unknown");
      assertThat(c.getReason()).isEqualTo("ImageAssembling");
    });

    FunctionState failed = await().atMost(Duration.ofSeconds(30)).until(() -> {
      FunctionState pass = planned(fn, plan);
      step.run(pass);
      return pass;
    }, pass -> pass.draft().condition("BuildReady").map(c -> c.getReason().equals("RegistryFailed")).orElse(false));
    assertThat(failed.desired()).as("no release: the running one stays").isEmpty();
    assertThat(failed.draft().condition("BuildReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getMessage()).contains(closed).contains("the running version stays")
          .contains("asks the registry again in 30s");
    });
    step.run(planned(fn, plan));
    assertThat(images.progress(fn, plan.key())).as("the failure is kept, not asked again before the delay")
        .hasValueSatisfying(p -> assertThat(p).isInstanceOf(LayeredImages.Progress.Failed.class));

    clock.advance(LayeredImages.RETRY_AFTER);
    FunctionState retried = planned(fn, plan);
    step.run(retried);
    assertThat(retried.draft().condition("BuildReady")).as("asked again").hasValueSatisfying(c ->
        assertThat(c.getReason()).isEqualTo("ImageAssembling"));
  }

  @Test
  void aSourceOverTheLayersCapIsRefusedNamingTheCapBeforeAnyRegistryIsAskedAndIsNotAskedAgain() throws Exception {
    String closed = FreePorts.closedAddress();
    BuildSettings builds = layered(closed);
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan inline = FunctionBuildPlan.ofInline(fn, builds);
    // A Git source's lock file may be up to the file limit (10 MiB), well past the source layer's 2 MiB.
    String lockFile = "{\"lockfileVersion\": 3, \"padding\": \"" + "x".repeat(3 * 1024 * 1024) + "\"}";
    FunctionBuildPlan plan = new FunctionBuildPlan(inline.key(), inline.image(), inline.context(), lockFile);
    LayeredImages images = new LayeredImages(Duration.ofSeconds(5), clock);
    LayeredImageStep step = step(builds, images);
    step.run(planned(fn, plan));

    await().atMost(Duration.ofSeconds(30)).until(() -> images.progress(fn, plan.key())
        .filter(LayeredImages.Progress.Refused.class::isInstance).isPresent());
    FunctionState refused = planned(fn, plan);
    assertThatThrownBy(() -> step.run(refused)).isInstanceOfSatisfying(StepFailure.Stalled.class, stall -> {
      assertThat(stall.reason()).isEqualTo("InvalidFunctionSpec");
      assertThat(stall.getMessage()).contains("handler.js, package.json and package-lock.json")
          .contains("cap of " + (2 * 1024 * 1024) + " bytes").contains("the running version stays")
          .doesNotContain(closed); // refused before the registry was asked
    });
    assertThat(refused.desired()).as("no release: the running one stays").isEmpty();

    clock.advance(LayeredImages.RETRY_AFTER.multipliedBy(10));
    assertThat(images.progress(fn, plan.key())).as("a refusal is not a registry failure: not asked again")
        .hasValueSatisfying(p -> assertThat(p).isInstanceOf(LayeredImages.Progress.Refused.class));
  }

  /** A loopback address nothing listens on: a registry that cannot be reached. */

  private LayeredImageStep step(BuildSettings builds, LayeredImages images) {
    BuildSlots slots = new BuildSlots(new BuildQueue(builds.concurrency()));
    slots.countFrom(Stream::empty);
    // No Secret in the namespace: anonymous, as the registry may allow.
    return new LayeredImageStep(new BuildJobs(null, builds), builds, slots, images, new WakeUps<>("functions"),
        (namespace, name) -> Map.of(), new SimpleMeterRegistry());
  }

  /** Pushes to {@code registry}, and every runtime's base image is there too. */
  private static BuildSettings layered(String registry) {
    BuildSettings builds = BuildSettings.defaults().withRegistry(registry).withInsecureRegistries(Set.of(registry))
        .withBuilder(ImageBuilder.of(ImageBuilder.Tool.LAYERED));
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      builds = builds.withBaseImage(runtime, registry + "/base/" + runtime.value() + ":1");
    }
    return builds;
  }

  private static FunctionState planned(Function fn, FunctionBuildPlan plan) {
    FunctionState state = Passes.of(fn);
    state.plan(plan);
    return state;
  }
}
