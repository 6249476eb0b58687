package io.gitfn.reconcile.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.Result;
import org.junit.jupiter.api.Test;

/**
 * A buildless Function's release is its source ConfigMap on the runtime's base image; nothing is built. Not for a
 * pinned Function, nor one in image mode. The sources are given no client here: only a source too large to be a
 * ConfigMap is decided before the API server is asked. Applying the ConfigMap is BuildlessIT's.
 */
class BuildlessStepTest {

  private static final BuildSettings BUILDS = BuildSettings.defaults();

  private final BuildlessStep step = new BuildlessStep(new BuildlessSources(null, BUILDS), BUILDS);

  @Test
  void aPinnedFunctionIsNotReleasedFromItsSpec() throws Exception {
    Function fn = buildless();
    FunctionState state = planned(fn, FunctionBuildPlan.ofInline(fn, BUILDS));
    state.pin("main@sha1:" + "c".repeat(40));

    Result result = step.run(state);

    assertThat(result).isEqualTo(Result.next());
    assertThat(state.desired()).isEmpty();
    assertThat(state.draft().conditions()).as("the pin says what runs").isEmpty();
  }

  @Test
  void aFunctionInImageModeIsNotBuildlessStepsToRelease() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionState state = planned(fn, FunctionBuildPlan.ofInline(fn, BUILDS));

    step.run(state);

    assertThat(state.desired()).isEmpty();
    assertThat(state.draft().conditions()).isEmpty();
  }

  @Test
  void aSourceTooLargeForItsConfigMapIsAnInvalidSpecAndReleasesNothing() throws Exception {
    Function fn = buildless();
    FunctionBuildPlan inline = FunctionBuildPlan.ofInline(fn, BUILDS);
    // The lock file goes into the source ConfigMap, though not into an image build's context.
    FunctionBuildPlan locked = new FunctionBuildPlan(inline.key(), inline.image(), inline.context(),
        "x".repeat(1024 * 1024));
    FunctionState state = planned(fn, locked);

    step.run(state);

    assertThat(state.draft().condition("ConfigurationReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("InvalidFunctionSpec");
      assertThat(c.getMessage()).startsWith("Function shop/orders: the build context is ");
    });
    assertThat(state.desired()).as("the running version stays").isEmpty();
  }

  private static Function buildless() {
    return TestFunction.inline().metadataAnnotation(Annotations.BUILD_MODE, "buildless").build();
  }

  private static FunctionState planned(Function fn, FunctionBuildPlan plan) {
    FunctionState state = Passes.of(fn);
    state.plan(plan);
    return state;
  }
}
