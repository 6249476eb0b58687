package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The templates' text; {@code DockerfileRehearsalIT} runs them. */
class DockerfilesTest {

  private static final String BASE = "example.com/runtime:1";

  private static String finalStage(String dockerfile) {
    return dockerfile.substring(dockerfile.indexOf("\nFROM ${base_image}\n"));
  }

  @ParameterizedTest
  @EnumSource(FunctionRuntime.class)
  void everyRuntimeBuildsOnTheBaseImageBuildArgAndRunsAsUser1000(FunctionRuntime runtime) {
    String dockerfile = Dockerfiles.forRuntime(runtime, BASE, false);

    assertThat(dockerfile).startsWith("# gitfn Dockerfile template " + Dockerfiles.TEMPLATE_VERSION)
        .contains("ARG base_image=" + BASE + "\n")
        .contains("FROM ${base_image} AS dependencies\n")
        .contains("\nFROM ${base_image}\n")
        .contains("\nUSER 1000\nENTRYPOINT [");
    assertThat(finalStage(dockerfile)).contains("ENV FUNC_RUNTIME=" + runtime.value() + "\n")
        .contains("ENV FUNC_PORT=8080\n")
        .contains("COPY runtime/ /gitfn/runtime/\n")
        .contains("WORKDIR /gitfn/function\n");
  }

  @ParameterizedTest
  @EnumSource(value = FunctionRuntime.class, names = {"NODEJS20", "NODEJS22"})
  void nodeInstallsTheRuntimeFromItsLockFileAndTheFunctionsPackageJson(FunctionRuntime runtime) {
    String dockerfile = Dockerfiles.forRuntime(runtime, BASE, false);

    assertThat(dockerfile)
        .contains("WORKDIR /gitfn/runtime\nCOPY runtime/package.json runtime/package-lock.json ./\n"
            + "RUN npm ci --omit=dev")
        .contains("WORKDIR /gitfn/function\nCOPY package.json ./\nRUN mkdir -p node_modules && npm install --omit=dev")
        .doesNotContain("pip")
        .doesNotContain(".npmrc");
    assertThat(finalStage(dockerfile))
        .contains("COPY --from=dependencies /gitfn/runtime/node_modules /gitfn/runtime/node_modules\n")
        .contains("COPY --from=dependencies /gitfn/function/node_modules /gitfn/function/node_modules\n")
        .contains("COPY handler.js package.json /gitfn/function/\n")
        .contains("ENV HANDLER_PATH=/gitfn/function/handler.js\n")
        .endsWith("ENTRYPOINT [\"node\", \"/gitfn/runtime/server.mjs\"]\n");
  }

  @Test
  void pythonInstallsBothRequirementsIntoTheFoldersItsPythonPathNames() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.PYTHON312, BASE, false);

    assertThat(dockerfile)
        .contains("WORKDIR /gitfn/runtime\nCOPY runtime/requirements.txt ./\n"
            + "RUN python3 -m pip install --target packages -r requirements.txt\n")
        .contains("WORKDIR /gitfn/function\nCOPY requirements.txt ./\n"
            + "RUN mkdir -p packages && python3 -m pip install --target packages -r requirements.txt\n")
        .doesNotContain("npm")
        .doesNotContain("pip.conf");
    assertThat(finalStage(dockerfile))
        .contains("COPY --from=dependencies /gitfn/runtime/packages /gitfn/runtime/packages\n")
        .contains("COPY --from=dependencies /gitfn/function/packages /gitfn/function/packages\n")
        .contains("COPY handler.py requirements.txt /gitfn/function/\n")
        .contains("ENV FUNCTION_PATH=/gitfn/function\n")
        .contains("ENV PYTHONPATH=/gitfn/runtime/packages:/gitfn/function/packages\n")
        .doesNotContain("PIP_")
        .endsWith("ENTRYPOINT [\"python3\", \"/gitfn/runtime/server.py\"]\n");
  }

  @Test
  void nodeUsesTheNpmrcForBothInstallsAndOnlyInTheDependencyStage() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.NODEJS22, BASE, true);

    assertThat(dockerfile).contains("USER root\nCOPY registry-config/.npmrc /gitfn/registry-config/.npmrc\n"
        + "ENV NPM_CONFIG_USERCONFIG=/gitfn/registry-config/.npmrc\nWORKDIR /gitfn/runtime\n");
    assertThat(finalStage(dockerfile)).doesNotContain(".npmrc").doesNotContain("registry-config");
  }

  @Test
  void pythonUsesThePipConfForBothInstallsAndOnlyInTheDependencyStage() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.PYTHON312, BASE, true);

    assertThat(dockerfile).contains("COPY registry-config/pip.conf /gitfn/registry-config/pip.conf\n"
        + "ENV PIP_CONFIG_FILE=/gitfn/registry-config/pip.conf\nWORKDIR /gitfn/runtime\n");
    assertThat(finalStage(dockerfile)).doesNotContain("pip.conf").doesNotContain("registry-config");
  }

  @ParameterizedTest
  @EnumSource(FunctionRuntime.class)
  void runCommandsUseOnlyPathsRelativeToTheWorkdir(FunctionRuntime runtime) {
    assertThat(Dockerfiles.forRuntime(runtime, BASE, true).lines().filter(line -> line.startsWith("RUN ")))
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).doesNotContainPattern("(\\s|=)/"));
  }
}
