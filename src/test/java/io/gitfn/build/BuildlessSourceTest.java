package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import io.gitfn.workload.ImageLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildlessSourceTest {

  private static final BuildSettings BUILDS = BuildSettings.defaults();

  @Test
  void theNameIsTheFunctionsAndTheKeysAndALongOneIsShortenedWithAHashOfTheWhole() {
    ContentKey key = new ContentKey("0123456789".repeat(6) + "abcd");
    String stem = "a-function-whose-name-is-long-enough-to-need-shortening-";

    String first = BuildlessSource.name(TestFunction.inline().named(stem + "one").build(), key);
    String second = BuildlessSource.name(TestFunction.inline().named(stem + "two").build(), key);

    assertThat(BuildlessSource.name(TestFunction.inline().named("orders").build(), key))
        .isEqualTo("orders-src-0123456789");
    assertThat(first).hasSizeLessThanOrEqualTo(63).endsWith("-src-0123456789").matches("[a-z0-9-]+");
    assertThat(second).as("long names that share a prefix do not share a source").isNotEqualTo(first)
        .hasSizeLessThanOrEqualTo(63);
  }

  private static BuildlessSource source(Function fn) throws Exception {
    return BuildlessSource.of(fn, FunctionBuildPlan.ofInline(fn, BUILDS), BUILDS);
  }

  @Test
  void holdsTheHandlerTheDependenciesAndTheRuntimeAtTheImagesPathsWithAnIndex() throws Exception {
    Function fn = TestFunction.inline().code("module.exports = { main: () => 'hi' }")
        .dependencies("{\"dependencies\":{\"ms\":\"2.1.3\"}}").build();

    BuildlessSource source = source(fn);

    assertThat(source.files()).containsEntry("function/handler.js", "module.exports = { main: () => 'hi' }")
        .containsEntry("function/package.json", "{\"dependencies\":{\"ms\":\"2.1.3\"}}")
        .containsKeys("runtime/server.mjs", "runtime/lib/app.mjs", "runtime/package-lock.json")
        .doesNotContainKey("Dockerfile");
    Map<String, String> data = source.data();
    assertThat(data).containsKeys("function.handler.js", "runtime.lib.app.mjs", BuildlessSource.INDEX);
    assertThat(data.get(BuildlessSource.INDEX)).contains("runtime.lib.app.mjs runtime/lib/app.mjs\n")
        .contains("function.handler.js function/handler.js\n");
    // Every file of the index ends up where an image has it.
    assertThat("/gitfn/" + BuildlessSource.FUNCTION).isEqualTo(ImageLayout.FUNCTION_DIR);
    assertThat("/gitfn/" + RuntimeSource.CONTEXT_DIR).isEqualTo(ImageLayout.RUNTIME_DIR);
  }

  @Test
  void theLockFileOfAGitBaseDirTravelsBesideThePackageJson() throws Exception {
    Function fn = TestFunction.fromGit("fn").build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofGitTree(fn, "a".repeat(40), "exports.main = () => 1",
        "{\"dependencies\":{\"ms\":\"2.1.3\"}}", "{\"lockfileVersion\":3}", BUILDS);

    assertThat(BuildlessSource.of(fn, plan, BUILDS).files())
        .containsEntry("function/package-lock.json", "{\"lockfileVersion\":3}");
  }

  @Test
  void aPythonFunctionHasItsRequirementsAndTheRuntimesPackage() throws Exception {
    Function fn = TestFunction.inline().runtime(FunctionRuntime.PYTHON312).code("def main(e, c):\n  return 1\n")
        .dependencies("six==1.16.0").build();

    assertThat(source(fn).files()).containsEntry("function/requirements.txt", "six==1.16.0")
        .containsKeys("function/handler.py", "runtime/server.py", "runtime/gitfn_runtime/app.py",
            "runtime/requirements.txt");
  }

  @Test
  void theKeyIsDerivedFromTheImageKeySoEveryInputMovesItAndNeitherNameIsTheOther() throws Exception {
    Function fn = TestFunction.inline().code("a").build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofInline(fn, BUILDS);
    BuildlessSource source = BuildlessSource.of(fn, plan, BUILDS);

    assertThat(source.key()).isNotEqualTo(plan.key())
        .isEqualTo(plan.key().derive(BuildlessSource.PURPOSE, BuildlessSource.LAYOUT_VERSION));
    assertThat(source(TestFunction.inline().code("b").build()).key()).isNotEqualTo(source.key());
    assertThat(BuildlessSource.of(fn, FunctionBuildPlan.ofInline(fn, BUILDS.withBaseImage(fn.getSpec().getRuntime(),
        "mirror.local/node:24")), BUILDS).key()).isNotEqualTo(source.key());
    // The same content in another Function has the same key, as images do.
    assertThat(source(TestFunction.inline().named("other").code("a").build()).key()).isEqualTo(source.key());
  }

  @Test
  void theConfigMapIsImmutableNamedByKeyOwnedByTheFunctionAndLabelledForCollection() throws Exception {
    Function fn = TestFunction.inline().named("orders").inNamespace("shop").uid("u-1").build();
    BuildlessSource source = source(fn);

    ConfigMap map = source.configMap(fn);

    assertThat(map.getImmutable()).isTrue();
    assertThat(map.getMetadata().getName()).isEqualTo("orders-src-" + source.key().value().substring(0, 10));
    assertThat(map.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(map.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo("u-1"));
    assertThat(map.getMetadata().getLabels()).containsEntry(Labels.CONTENT_KEY, source.key().tag())
        .containsEntry(Labels.RESOURCE, BuildlessSource.RESOURCE).containsEntry(Labels.FUNCTION_NAME, "orders");
    assertThat(map.getData()).isEqualTo(source.data());
    assertThat(source.size()).isLessThan(BuildContext.LIMIT);
  }

  @Test
  void aLockFilePastTheConfigMapLimitIsRefusedWithTheFunctionsName() throws Exception {
    Function fn = TestFunction.fromGit("fn").named("orders").inNamespace("shop").build();
    FunctionBuildPlan plan = FunctionBuildPlan.ofGitTree(fn, "a".repeat(40), "exports.main = () => 1", "{}",
        "x".repeat((int) BuildContext.LIMIT), BUILDS);

    assertThatThrownBy(() -> BuildlessSource.of(fn, plan, BUILDS))
        .isInstanceOf(BuildContextTooLargeException.class).hasMessageContaining("shop/orders");
  }
}
