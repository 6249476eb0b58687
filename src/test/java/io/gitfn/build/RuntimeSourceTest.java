package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RuntimeSourceTest {

  @Test
  void aFileTravelsUnderAFlatKeyAndReturnsToItsPathBelowRuntime() {
    assertThat(RuntimeSource.contextKey("lib/app.mjs")).isEqualTo("runtime.lib.app.mjs");
    assertThat(RuntimeSource.contextPath("lib/app.mjs")).isEqualTo("runtime/lib/app.mjs");
    assertThat(RuntimeSource.contextKey("gitfn_runtime/__init__.py")).isEqualTo("runtime.gitfn_runtime.__init__.py");
  }

  @ParameterizedTest
  @ValueSource(strings = {"node_modules/express/index.js", "site/bottle.py", "gitfn_runtime/__pycache__/a.pyc",
      "packages/x.py"})
  void installedPackagesAreRefused(String path) {
    assertThatThrownBy(() -> new RuntimeSource(Map.of(path, "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("installed package");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "../x", "lib/../x", "lib//x", "a b"})
  void onlyRelativePathsOfPlainNamesAreAllowed(String path) {
    assertThatThrownBy(() -> new RuntimeSource(Map.of(path, "x"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void twoPathsWithTheSameKeyAreRefused() {
    assertThatThrownBy(() -> new RuntimeSource(Map.of("lib/a.mjs", "x", "lib.a.mjs", "y")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same ConfigMap key");
  }

  @Test
  void theDigestCoversPathsAndContents() {
    RuntimeSource source = new RuntimeSource(Map.of("a.mjs", "1", "b.mjs", "2"));

    assertThat(source.digest()).matches("[0-9a-f]{64}")
        .isEqualTo(new RuntimeSource(Map.of("b.mjs", "2", "a.mjs", "1")).digest())
        .isNotEqualTo(new RuntimeSource(Map.of("a.mjs", "1", "b.mjs", "3")).digest())
        .isNotEqualTo(new RuntimeSource(Map.of("a.mjs", "1", "c.mjs", "2")).digest());
  }

  @Test
  void theSizeCountsFlatKeysAndContents() {
    assertThat(new RuntimeSource(Map.of("lib/a", "é")).size()).isEqualTo("runtime.lib.a".length() + 2);
  }
}
