package io.gitfn.reconcile.function;

import java.util.List;
import java.util.Optional;
import io.gitfn.api.Labels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.gitfn.api.Annotations;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.build.BuildSettings;
import io.gitfn.build.ContentKey;
import io.gitfn.build.FunctionBuildPlan;
import io.gitfn.build.RuntimeSource;
import io.gitfn.manifest.FunctionRules;
import io.gitfn.reconcile.ControllerSettings;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.Backoff;
import io.gitfn.source.MirrorCache;
import io.gitfn.source.SourceSettings;
import io.gitfn.trigger.SourceWatcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an inline Function's spec asks to build, its plan, and ConfigurationReady saying so; a spec that can never
 * build stalls with InvalidFunctionSpec, naming every broken field, and so do invalid verify annotations. Git sources
 * are GitFunctionIT's, signed ones GitFunctionVerifyIT's.
 */
class PlanStepTest {

  private static final BuildSettings BUILDS = BuildSettings.defaults();

  @TempDir Path directory;

  private MirrorCache mirrors;
  private SourceWatcher watcher;

  @BeforeEach
  void startWatcher() {
    mirrors = new MirrorCache(SourceSettings.defaults(directory));
    watcher = new SourceWatcher(mirrors, Passes.CLOCK, Backoff.DEFAULT, 1);
  }

  @AfterEach
  void closeWatcher() {
    watcher.close();
    mirrors.close();
  }

  @Test
  void aValidInlineFunctionGetsTheBuildPlanRenderComputesAndConfigurationReadyNamesItsContentKey() throws Exception {
    Function fn = TestFunction.inline().build();
    FunctionState state = Passes.of(fn);

    Result result = step(BUILDS).run(state);

    assertThat(result).isEqualTo(Result.next());
    FunctionBuildPlan expected = FunctionBuildPlan.ofInline(fn, BUILDS);
    assertThat(state.plan()).contains(expected);
    assertThat(state.draft().condition("ConfigurationReady")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("SourceUpdated");
      assertThat(c.getMessage()).isEqualTo("content key " + expected.key().tag());
    });
    assertThat(state.status().getRuntimeImage()).isEqualTo(BUILDS.baseImage(FunctionRuntime.NODEJS22));
  }

  @Test
  void aDeprecatedRuntimeIsConfiguredWithKymasWarningFirst() throws Exception {
    Function fn = TestFunction.inline().runtime(FunctionRuntime.NODEJS20).build();
    FunctionState state = Passes.of(fn);

    step(BUILDS).run(state);

    assertThat(state.draft().condition("ConfigurationReady")).map(Condition::getMessage).hasValue(
        "Warning: function configured, runtime nodejs20 is deprecated and will be removed in the future; content key "
            + ContentKey.ofInline(fn, BUILDS).tag());
  }

  @Test
  void aSpecThatBreaksKymasRulesStallsNamingEveryBrokenFieldAndPlansNothing() {
    Function fn = TestFunction.inline().code("").dependencies("lodash@4").build();
    FunctionState state = Passes.of(fn);

    assertThatThrownBy(() -> step(BUILDS).run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
      assertThat(stalled).hasMessage(String.join("; ", FunctionRules.check(fn)));
      assertThat(stalled.getMessage()).contains("spec.source.inline.source: is required")
          .contains("spec.source.inline.dependencies: Node.js dependencies must be a package.json object");
      assertThat(stalled.lookAgain()).as("a spec change starts the next pass").isEmpty();
    });
    assertThat(state.plan()).isEmpty();
  }

  @Test
  void aSourceOverTheInlineLimitIsABrokenRuleNamingItsSize() {
    Function fn = TestFunction.inline().code("x".repeat(900 * 1024 + 1)).build();

    assertThatThrownBy(() -> step(BUILDS).run(Passes.of(fn))).isInstanceOfSatisfying(StepFailure.Stalled.class,
        stalled -> {
          assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
          assertThat(stalled.getMessage()).startsWith("spec.source.inline.source: source and dependencies are 921601"
              + " bytes, over the limit of 921600 bytes");
        });
  }

  @Test
  void aContextThatTheRuntimeServerPushesOverTheConfigMapLimitStallsSayingHowMuchIsTheRuntimes() {
    // Within the rules' limit for source and dependencies, but not with a runtime server of 200 KiB beside them.
    RuntimeSource server = new RuntimeSource(Map.of("server.mjs", "x".repeat(200 * 1024)));
    BuildSettings largeRuntime = BUILDS.withRuntime(FunctionRuntime.NODEJS22, server);
    Function fn = TestFunction.inline().code("x".repeat(900 * 1024)).build();
    FunctionState state = Passes.of(fn);

    assertThatThrownBy(() -> step(largeRuntime).run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class,
        stalled -> {
          assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
          assertThat(stalled.getMessage()).startsWith("Function shop/orders: the build context is ")
              .contains("over the ConfigMap limit of 1048576 bytes")
              .endsWith("(gitfn's runtime server takes " + server.size() + " bytes of it)");
        });
    assertThat(state.plan()).isEmpty();
  }

  @Test
  void aGitSourceWhoseVerifyAnnotationsAreInvalidStallsBeforeAnyRevisionIsReadAndPlansNothing() {
    Function fn = TestFunction.fromGit("/orders").metadataAnnotation(Annotations.VERIFY_MODE, "Range").build();
    FunctionState state = Passes.of(fn);

    assertThatThrownBy(() -> step(BUILDS).run(state)).isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
      assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
      assertThat(stalled.getMessage()).startsWith("annotation gitfn.io/verify-mode asks for signed revisions");
    });
    assertThat(state.plan()).isEmpty();
    assertThat(state.status().getCommit()).isNull();
  }

  @Test
  void aPreviewsFunctionIsPlannedUnderItsRepositorysNamespaceWhereGitfnLabelledItsNamespace() throws Exception {
    Function fn = TestFunction.inline().inNamespace("shop-pr-7")
        .metadataAnnotation(Annotations.IMAGE_NAMESPACE, "shop").build();
    FunctionState state = Passes.of(fn);

    step(BUILDS, Map.of("shop-pr-7", Map.of(Labels.PREVIEW_OF, "shop.infra"))).run(state);

    assertThat(state.plan()).hasValueSatisfying(plan -> assertThat(plan.image())
        .startsWith(BUILDS.registry() + "/shop/" + fn.getMetadata().getName() + ":"));
  }

  @Test
  void anotherNamespacesImagesAreRefusedWhereTheNamespaceIsNoPreviewOfIt() {
    Function fn = TestFunction.inline().inNamespace("mallory")
        .metadataAnnotation(Annotations.IMAGE_NAMESPACE, "shop").build();
    FunctionState state = Passes.of(fn);

    for (Map<String, String> labels : List.of(Map.<String, String>of(), Map.of(Labels.PREVIEW_OF, "shopping.infra"))) {
      assertThatThrownBy(() -> step(BUILDS, Map.of("mallory", labels)).run(state))
          .isInstanceOfSatisfying(StepFailure.Stalled.class, stalled -> {
            assertThat(stalled.reason()).isEqualTo("InvalidFunctionSpec");
            assertThat(stalled.getMessage()).startsWith("annotation gitfn.io/image-namespace: shop is honoured only"
                + " on a preview's Function").endsWith("namespace mallory is not one");
          });
    }
    assertThat(state.plan()).isEmpty();
  }

  private PlanStep step(BuildSettings builds) {
    return step(builds, Map.of());
  }

  private PlanStep step(BuildSettings builds, Map<String, Map<String, String>> namespaceLabels) {
    SourceBinding sources = new SourceBinding(null, watcher, ControllerSettings.defaults(), Passes.CLOCK, id -> { });
    return new PlanStep(sources, mirrors, builds, Duration.ofMinutes(1),
        new RevisionSignatures(sources, mirrors, Passes.CLOCK),
        namespace -> Optional.ofNullable(namespaceLabels.get(namespace)));
  }
}
