package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.gitfn.api.Labels;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.api.function.TestFunction;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BuildContextTest {

  private static final BuildSettings SETTINGS = BuildSettings.defaults();

  private static Set<String> runtimeKeys(FunctionRuntime runtime) {
    return SETTINGS.runtimes().of(runtime).files().keySet().stream().map(RuntimeSource::contextKey)
        .collect(Collectors.toSet());
  }

  private static Set<String> functionKeys(BuildContext context) {
    return context.data().keySet().stream().filter(key -> !key.startsWith("runtime.")).collect(Collectors.toSet());
  }

  @Test
  void aNodeContextHoldsHandlerPackageJsonAndTheRuntime() throws Exception {
    Function fn = TestFunction.inline().code("module.exports = {}").dependencies("{\"name\":\"x\"}").build();

    BuildContext context = BuildContext.ofInline(fn, SETTINGS);

    assertThat(functionKeys(context)).containsExactlyInAnyOrder("handler.js", "package.json");
    assertThat(context.data()).containsKeys(runtimeKeys(FunctionRuntime.NODEJS22).toArray(String[]::new))
        .containsKeys("runtime.server.mjs", "runtime.lib.app.mjs", "runtime.package-lock.json")
        .containsEntry("runtime.server.mjs", SETTINGS.runtimes().nodejs().files().get("server.mjs"))
        .containsEntry("handler.js", "module.exports = {}")
        .containsEntry("package.json", "{\"name\":\"x\"}");
  }

  @Test
  void blankNodeDependenciesBecomeAnEmptyObject() throws Exception {
    BuildContext context = BuildContext.ofInline(TestFunction.inline().build(), SETTINGS);

    assertThat(context.data()).containsEntry("package.json", "{}");
  }

  @Test
  void aPythonContextHoldsHandlerAndRequirements() throws Exception {
    Function fn = TestFunction.fromGit("f").runtime(FunctionRuntime.PYTHON312).build();

    BuildContext context = BuildContext.of(fn, "def main(e, c): return 'ok'", null, SETTINGS);

    assertThat(functionKeys(context)).containsExactlyInAnyOrder("handler.py", "requirements.txt");
    assertThat(context.data()).containsEntry("requirements.txt", "")
        .containsKeys("runtime.server.py", "runtime.requirements.txt", "runtime.gitfn_runtime.__init__.py")
        .hasSize(2 + runtimeKeys(FunctionRuntime.PYTHON312).size());
  }

  @Test
  void theContextCarriesRuntimeSourcesOnlyAndStaysWellUnderTheLimit() throws Exception {
    for (FunctionRuntime runtime : FunctionRuntime.values()) {
      Function fn = TestFunction.inline().runtime(runtime).build();

      BuildContext context = BuildContext.ofInline(fn, SETTINGS);

      assertThat(context.data().keySet()).noneMatch(key -> key.contains("node_modules") || key.contains("site")
          || key.contains("__pycache__") || key.contains("/"));
      // The runtime's share leaves the user nearly all of the 1 MiB.
      assertThat(context.size()).as(runtime.value()).isLessThan(BuildContext.LIMIT / 10);
    }
  }

  @Test
  void theSizeCountsKeysAndValuesInUtf8() throws Exception {
    BuildContext context = new BuildContext(java.util.Map.of("a", "é"));

    assertThat(context.size()).isEqualTo(3);
  }

  @Test
  void aContextOverOneMebibyteIsRefusedNamingTheFunctionAndTheSize() {
    Function fn = TestFunction.inline().code("x".repeat(1024 * 1024)).build();

    assertThatThrownBy(() -> BuildContext.ofInline(fn, SETTINGS))
        .isInstanceOf(BuildContextTooLargeException.class)
        .hasMessageStartingWith("Function shop/orders: the build context is ")
        .hasMessageContaining("over the ConfigMap limit of 1048576 bytes")
        .hasMessageContaining("gitfn's runtime server takes " + SETTINGS.runtimes().nodejs().size() + " bytes of it")
        .satisfies(e -> assertThat(((BuildContextTooLargeException) e).size()).isGreaterThan(1024 * 1024));
  }

}
