package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.function.FunctionRuntime;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DefaultBaseImagesTest {

  // The images up to nodejs22 are the ones gitfn has always used: a key computed before nodejs24 stays the same.
  @Test
  void eachRuntimeStartsFromDockerHubsOfficialImageOfItsVersion() {
    assertThat(BuildSettings.DEFAULT_BASE_IMAGES).isEqualTo(Map.of(
        FunctionRuntime.NODEJS20, "docker.io/library/node:20-bookworm-slim",
        FunctionRuntime.NODEJS22, "docker.io/library/node:22-bookworm-slim",
        FunctionRuntime.NODEJS24, "docker.io/library/node:24-bookworm-slim",
        FunctionRuntime.PYTHON312, "docker.io/library/python:3.12-slim-bookworm"));
  }
}
