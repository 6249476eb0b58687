package io.gitfn.api.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.Annotations;
import org.junit.jupiter.api.Test;

class BuildModeTest {

  @Test
  void theAnnotationNamesTheModeInAnyCaseAndNoAnnotationIsNoRequest() {
    assertThat(BuildMode.requested(TestFunction.inline().metadataAnnotation(Annotations.BUILD_MODE, " Buildless ")
        .build())).hasValue(BuildMode.BUILDLESS);
    assertThat(BuildMode.requested(TestFunction.inline().metadataAnnotation(Annotations.BUILD_MODE, "image")
        .build())).hasValue(BuildMode.IMAGE);
    assertThat(BuildMode.requested(TestFunction.inline().build())).isEmpty();
  }

  @Test
  void anUnknownModeSaysWhichModesThereAre() {
    assertThatThrownBy(() -> BuildMode.parse("kaniko"))
        .hasMessage("`kaniko` is not a build mode: use one of image, buildless");
  }
}
