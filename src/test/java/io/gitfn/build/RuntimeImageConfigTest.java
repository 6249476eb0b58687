package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.gitfn.api.function.FunctionRuntime;
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
        .containsEntry("PYTHONPATH", "/gitfn/runtime/packages:/gitfn/function/packages")
        .containsEntry("PYTHONUNBUFFERED", "TRUE");
  }

  @Test
  void theDockerfilesSayTheSame() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.PYTHON312, "python:3.12", false);
    assertThat(dockerfile).endsWith("ENV FUNC_RUNTIME=python312\nENV FUNC_HANDLER=main\nENV MOD_NAME=handler\n"
        + "ENV FUNC_PORT=8080\nENV FUNCTION_PATH=/gitfn/function\n"
        + "ENV PYTHONPATH=/gitfn/runtime/packages:/gitfn/function/packages\nENV PYTHONUNBUFFERED=TRUE\n"
        + "WORKDIR /gitfn/function\nUSER 1000\nENTRYPOINT [\"python3\", \"/gitfn/runtime/server.py\"]\n");
  }
}
