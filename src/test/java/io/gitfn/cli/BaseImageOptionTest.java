package io.gitfn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.build.BuildSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

class BaseImageOptionTest {

  @Test
  void eachValueReplacesItsRuntimesDefaultAndLeavesTheOthers() {
    var images = BaseImageOption.apply(BuildSettings.DEFAULT_BASE_IMAGES, List.of(
        "nodejs22=10.0.0.1:5000/gitfn/node-images/nodejs22:1", "python312=mirror.example.com/library/python:3.12"));

    assertThat(images).containsEntry(FunctionRuntime.NODEJS22, "10.0.0.1:5000/gitfn/node-images/nodejs22:1")
        .containsEntry(FunctionRuntime.PYTHON312, "mirror.example.com/library/python:3.12")
        .containsEntry(FunctionRuntime.NODEJS20, BuildSettings.DEFAULT_BASE_IMAGES.get(FunctionRuntime.NODEJS20));
  }

  @Test
  void noValueKeepsTheDefaults() {
    assertThat(BaseImageOption.apply(BuildSettings.DEFAULT_BASE_IMAGES, List.of()))
        .isEqualTo(BuildSettings.DEFAULT_BASE_IMAGES);
  }

  @Test
  void aRuntimeNamedTwiceIsRefused() {
    assertThatThrownBy(() -> BaseImageOption.apply(BuildSettings.DEFAULT_BASE_IMAGES,
        List.of("nodejs22=a.example.com/node:22", "nodejs22=b.example.com/node:22")))
        .hasMessage("--base-image names nodejs22 twice");
  }

  @Test
  void aNewlineCannotReachTheDockerfile() {
    assertThatThrownBy(() -> BaseImageOption.apply(BuildSettings.DEFAULT_BASE_IMAGES,
        List.of("nodejs22=node:22\nCOPY registry-config /leak")))
        .hasMessageStartingWith("--base-image `nodejs22=node:22").hasMessageContaining("is not an image reference");
  }
}
