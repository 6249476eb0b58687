package io.gitfn.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImageNameTest {

  private static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

  @Test
  void aTaggedImageAndAnImageByDigestParse() {
    assertThat(ImageName.parse("registry.local:5000/team/orders:deps-1"))
        .isEqualTo(new ImageName("registry.local:5000", "team/orders", "deps-1"));
    assertThat(ImageName.parse("registry.local:5000/base/nodejs22@" + DIGEST))
        .isEqualTo(new ImageName("registry.local:5000", "base/nodejs22", DIGEST));
    assertThat(ImageName.parse("registry.local:5000/base/nodejs22@" + DIGEST).toString())
        .isEqualTo("registry.local:5000/base/nodejs22@" + DIGEST);
  }

  @Test
  void whatIsWrongIsNamed() {
    assertThatThrownBy(() -> ImageName.parse("registry.local/base@sha256:abc"))
        .hasMessage("image `registry.local/base@sha256:abc`: the digest is not sha256: and 64 hex digits");
    assertThatThrownBy(() -> ImageName.parse("registry.local/base:1@" + DIGEST))
        .hasMessageEndingWith("has both a tag and a digest; name one");
    assertThatThrownBy(() -> ImageName.parse("nodejs22:1")).hasMessageContaining("names no registry host");
  }
}
