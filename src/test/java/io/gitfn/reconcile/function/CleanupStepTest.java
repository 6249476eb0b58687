package io.gitfn.reconcile.function;

import static io.gitfn.reconcile.function.Passes.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.DependencyInstallJob;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.reconcile.function.Rollout.Release;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Once a release has rolled out, its history entry says so: automatic rollback returns only to such a version. An
 * install Job still running stays. Leaving and deleting finished install Jobs, and the sources the history no longer
 * names, is FunctionControllerIT's and BuildlessIT's; the Jobs and sources are given no client here.
 */
class CleanupStepTest {

  private static final BuildSettings BUILDS = BuildSettings.defaults();

  private final CleanupStep step = new CleanupStep(new BuildJobs(null, BUILDS), new BuildlessSources(null, BUILDS),
      BUILDS);

  @Test
  void aReleaseThatRolledOutIsMarkedSoAndARunningInstallJobStays() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));
    FunctionState state = Passes.of(fn, List.of(runningInstall()));
    state.plan(plan);
    state.release(Optional.of(new Release(plan.key(), plan.image())));
    state.rolledOut(true);

    step.run(state); // the Jobs have no client: deleting one would throw

    assertThat(state.history()).singleElement().satisfies(e ->
        assertThat(e.getRolledOut()).isEqualTo(Passes.NOW.toString()));
  }

  @Test
  void beforeTheRolloutIsObservedNothingIsMarked() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    Passes.withHistory(fn, entry(plan.key(), plan.image(), "inline", "Succeeded", null));
    FunctionState state = Passes.of(fn);
    state.plan(plan);
    state.release(Optional.of(new Release(plan.key(), plan.image())));
    state.rolledOut(false);

    step.run(state);

    assertThat(state.history()).singleElement().satisfies(e -> assertThat(e.getRolledOut()).isNull());
  }

  private static Job runningInstall() {
    return new JobBuilder().withNewMetadata().withName("gitfn-deps-0123").withNamespace("shop")
        .addToLabels(Labels.RESOURCE, DependencyInstallJob.RESOURCE).endMetadata()
        .withNewStatus().withActive(1).endStatus().build();
  }
}
