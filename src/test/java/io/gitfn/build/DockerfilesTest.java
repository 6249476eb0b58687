package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DockerfilesTest {

  private static final String BASE = "example.com/runtime:1";

  @ParameterizedTest
  @EnumSource(FunctionRuntime.class)
  void everyRuntimeBuildsOnTheBaseImageBuildArg(FunctionRuntime runtime) {
    String dockerfile = Dockerfiles.forRuntime(runtime, BASE, false);

    assertThat(dockerfile).startsWith("# gitfn Dockerfile template " + Dockerfiles.TEMPLATE_VERSION)
        .contains("ARG base_image=" + BASE + "\n")
        .contains("FROM ${base_image} AS dependencies\n")
        .contains("\nFROM ${base_image}\n")
        .endsWith("USER 1000\n");
  }

  @ParameterizedTest
  @EnumSource(value = FunctionRuntime.class, names = {"NODEJS20", "NODEJS22"})
  void nodeInstallsPackageJsonAndCopiesTheHandler(FunctionRuntime runtime) {
    String dockerfile = Dockerfiles.forRuntime(runtime, BASE, false);

    assertThat(dockerfile)
        .contains("COPY package.json ./\n")
        .contains("npm install --omit=dev")
        .contains("COPY --from=dependencies /usr/src/app/function/node_modules /usr/src/app/function/node_modules")
        .contains("COPY package.json handler.js /usr/src/app/function/")
        .doesNotContain("pip")
        .doesNotContain(".npmrc");
  }

  @Test
  void pythonInstallsRequirementsWhereItsPythonPathLooksAndCopiesTheHandler() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.PYTHON312, BASE, false);

    assertThat(dockerfile)
        .contains("COPY requirements.txt ./\n")
        .contains("pip install --no-cache-dir --target=/kubeless/lib.python3.12/site-packages -r requirements.txt")
        .contains("COPY requirements.txt handler.py /kubeless/")
        .doesNotContain("npm")
        .doesNotContain("pip.conf");
  }

  @Test
  void nodeUsesTheNpmrcOnlyInTheDependencyStage() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.NODEJS22, BASE, true);
    String finalStage = dockerfile.substring(dockerfile.indexOf("\nFROM ${base_image}\n"));

    assertThat(dockerfile).contains("COPY registry-config/.npmrc ./.npmrc\nRUN mkdir -p node_modules && npm install");
    assertThat(finalStage).doesNotContain(".npmrc").doesNotContain("registry-config");
  }

  @Test
  void pythonUsesThePipConfOnlyInTheDependencyStage() {
    String dockerfile = Dockerfiles.forRuntime(FunctionRuntime.PYTHON312, BASE, true);
    String finalStage = dockerfile.substring(dockerfile.indexOf("\nFROM ${base_image}\n"));

    assertThat(dockerfile).contains("COPY registry-config/pip.conf /etc/pip.conf\nRUN mkdir -p");
    assertThat(finalStage).doesNotContain("pip.conf").doesNotContain("registry-config");
  }
}
