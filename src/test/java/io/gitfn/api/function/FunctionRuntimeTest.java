package io.gitfn.api.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime.Language;
import org.junit.jupiter.api.Test;

/** A runtime is one declaration; what gitfn derives from it follows. */
class FunctionRuntimeTest {

  @Test
  void theRuntimesAreKymasEnumWithNodejs24AsTheDefault() {
    assertThat(FunctionRuntime.values()).extracting(FunctionRuntime::value)
        .containsExactly("nodejs20", "nodejs22", "nodejs24", "python312");
    assertThat(FunctionRuntime.DEFAULT).isEqualTo(FunctionRuntime.NODEJS24);
  }

  @Test
  void onlyNodejs20IsDeprecatedAndItsWarningIsKymas() {
    assertThat(FunctionRuntime.values()).filteredOn(FunctionRuntime::deprecated)
        .containsExactly(FunctionRuntime.NODEJS20);
    assertThat(FunctionRuntime.NODEJS20.deprecationWarning())
        .isEqualTo("Warning: function configured, runtime nodejs20 is deprecated and will be removed in the future");
  }

  @Test
  void eachRuntimeNamesItsLanguageAndVersion() {
    assertThat(FunctionRuntime.NODEJS24.language()).isEqualTo(Language.NODEJS);
    assertThat(FunctionRuntime.NODEJS24.displayName()).isEqualTo("Node.js 24");
    assertThat(FunctionRuntime.PYTHON312.isNodejs()).isFalse();
    assertThat(FunctionRuntime.PYTHON312.displayName()).isEqualTo("Python 3.12");
  }
}
