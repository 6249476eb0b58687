package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.gitfn.api.function.FunctionRuntime;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimeImageConfigTest {

  @Test
  void aNodeImageRunsGitfnsServerAsUser1000InTheFunctionsFolder() {
    RuntimeImageConfig config = RuntimeImageConfig.of(FunctionRuntime.NODEJS22);

    assertThat(config.entrypoint()).containsExactly("node", "/gitfn/runtime/server.mjs");
    assertThat(config.user()).isEqualTo("1000");
    assertThat(config.workingDir()).isEqualTo("/gitfn/function");
    assertThat(config.env()).containsExactly(entry("FUNC_RUNTIME", "nodejs22"), entry("FUNC_HANDLER", "main"),
        entry("MOD_NAME", "handler"), entry("FUNC_PORT", "8080"),
        entry("HANDLER_PATH", "/gitfn/function/handler.js"));
  }

  @Test
  void aPythonImageFindsTheRuntimesPackagesBeforeTheFunctions() {
    RuntimeImageConfig config = RuntimeImageConfig.of(FunctionRuntime.PYTHON312);

    assertThat(config.entrypoint()).containsExactly("python3", "/gitfn/runtime/server.py");
    assertThat(config.env()).containsEntry("FUNCTION_PATH", "/gitfn/function")
        .containsEntry("PYTHONPATH", "/gitfn/function/packages:/gitfn/runtime/packages")
        .containsEntry("PYTHONUNBUFFERED", "TRUE");
  }

  @Test
  void aPythonImageRunsAsKymasRuntimeDefaultsSayInOrder() {
    RuntimeImageConfig config = RuntimeImageConfig.of(FunctionRuntime.PYTHON312);

    assertThat(config.env()).containsExactly(Map.entry("FUNC_RUNTIME", "python312"), Map.entry("FUNC_HANDLER", "main"),
        Map.entry("MOD_NAME", "handler"), Map.entry("FUNC_PORT", "8080"), Map.entry("FUNCTION_PATH", "/gitfn/function"),
        Map.entry("PYTHONPATH", "/gitfn/function/packages:/gitfn/runtime/packages"),
        Map.entry("PYTHONUNBUFFERED", "TRUE"));
    assertThat(config.workingDir()).isEqualTo("/gitfn/function");
    assertThat(config.user()).isEqualTo("1000");
  }
}
