package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionRuntime;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayerKeysTest {

  private static final String BASE = "sha256:" + "a".repeat(64);
  private static final String OTHER_BASE = "sha256:" + "b".repeat(64);
  private static final String PACKAGE = "{\"dependencies\": {\"ms\": \"2.1.3\"}}";
  private static final String LOCK = "{\"lockfileVersion\": 3}";

  @Test
  void theSameInputsGiveTheSameKeys() {
    assertThat(LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", BASE))
        .isEqualTo(LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", BASE));
    assertThat(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, LOCK, ""))
        .isEqualTo(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, LOCK, ""));
  }

  @Test
  void theRuntimeLayerMovesWithTheRuntimeItsFilesAndTheBaseImage() {
    ContentKey key = LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", BASE);
    assertThat(List.of(
        LayerKeys.runtime(FunctionRuntime.NODEJS24, "files", BASE),
        LayerKeys.runtime(FunctionRuntime.NODEJS22, "changed files", BASE),
        LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", OTHER_BASE)))
        .doesNotContain(key).doesNotHaveDuplicates();
  }

  @Test
  void theDependencyLayerMovesWithEachOfItsInputs() {
    ContentKey key = LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, LOCK, "");
    assertThat(List.of(
        LayerKeys.dependencies(FunctionRuntime.NODEJS24, BASE, PACKAGE, LOCK, ""),
        LayerKeys.dependencies(FunctionRuntime.NODEJS22, OTHER_BASE, PACKAGE, LOCK, ""),
        LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, "{}", LOCK, ""),
        LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, null, ""),
        LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, "", ""),
        LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, LOCK, "c".repeat(64))))
        .doesNotContain(key).doesNotHaveDuplicates();
  }

  @Test
  void blankNodeDependenciesAreAnEmptyObjectAsInKyma() {
    assertThat(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, "  ", null, ""))
        .isEqualTo(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, "{}", null, ""));
  }

  @Test
  void aNodePackagesOwnNameAndVersionDoNotMoveTheKeyButItsDependenciesDo() {
    ContentKey orders = LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE,
        "{\"name\": \"orders\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}", null, "");

    assertThat(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE,
        "{\"name\": \"payments\", \"version\": \"2.0.0\", \"dependencies\": {\"ms\": \"2.1.3\"}}", null, ""))
        .isEqualTo(orders);
    assertThat(LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE,
        "{\"name\": \"orders\", \"version\": \"1.0.0\", \"dependencies\": {\"ms\": \"2.1.2\"}}", null, ""))
        .isNotEqualTo(orders);
  }

  @Test
  void noLayerKeyEqualsAnotherKindOfKey() {
    ContentKey runtime = LayerKeys.runtime(FunctionRuntime.NODEJS22, "", BASE);
    ContentKey dependencies = LayerKeys.dependencies(FunctionRuntime.PYTHON312, BASE, "", null, "");
    assertThat(runtime).isNotEqualTo(dependencies);
  }

  @Test
  void theDependencyImageTagCoversBothLayers() {
    ContentKey runtime = LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", BASE);
    ContentKey dependencies = LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, PACKAGE, LOCK, "");
    String tag = LayerKeys.dependencyTag(runtime, dependencies);

    assertThat(tag).matches("deps-[0-9a-f]{32}");
    assertThat(LayerKeys.dependencyTag(LayerKeys.runtime(FunctionRuntime.NODEJS22, "new files", BASE), dependencies))
        .isNotEqualTo(tag);
    assertThat(LayerKeys.dependencyTag(dependencies, runtime)).isNotEqualTo(tag);
  }

  @Test
  void theRuntimeImageTagFollowsTheRuntimeLayerAloneAndIsNoDependencyTag() {
    ContentKey runtime = LayerKeys.runtime(FunctionRuntime.NODEJS22, "runtime files", BASE);
    ContentKey dependencies = LayerKeys.dependencies(FunctionRuntime.NODEJS22, BASE, "{}", null, "");

    assertThat(LayerKeys.runtimeTag(runtime)).matches("runtime-[0-9a-f]{32}")
        .isEqualTo(LayerKeys.runtimeTag(LayerKeys.runtime(FunctionRuntime.NODEJS22, "runtime files", BASE)))
        .isNotEqualTo(LayerKeys.runtimeTag(LayerKeys.runtime(FunctionRuntime.NODEJS22, "new files", BASE)));
    assertThat(LayerKeys.runtimeTag(runtime).substring("runtime-".length()))
        .isNotEqualTo(LayerKeys.dependencyTag(runtime, dependencies).substring("deps-".length()));
  }

  @Test
  void aBaseImageIsNamedByItsDigestNotItsTag() {
    assertThatThrownBy(() -> LayerKeys.runtime(FunctionRuntime.NODEJS22, "files", "node:22"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a base image is named by its manifest digest").hasMessageContaining("`node:22`");
  }
}
