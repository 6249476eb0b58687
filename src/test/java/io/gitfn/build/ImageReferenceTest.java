package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.Function;
import io.gitfn.api.function.TestFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ImageReferenceTest {

  private static final String TAG = "0123abcd0123abcd0123abcd0123abcd";

  @Test
  void theImageABuildPushesSplitsIntoRegistryRepositoryAndTag() {
    Function fn = TestFunction.inline().named("hello").inNamespace("shop").build();
    ContentKey key = ContentKey.ofInline(fn, BuildSettings.defaults());

    ImageReference image = ImageReference.parse(FunctionBuildPlan.image(fn, key, BuildSettings.defaults()));

    assertThat(image).isEqualTo(new ImageReference("registry.local:5000", "shop/hello", key.tag()));
    assertThat(image.toString()).isEqualTo(FunctionBuildPlan.image(fn, key, BuildSettings.defaults()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "registry.local:5000/shop-hello:" + TAG + ", registry.local:5000, shop-hello",
      "ghcr.io/acme/shop-hello:" + TAG + ",        ghcr.io,             acme/shop-hello",
      "localhost/shop-hello:" + TAG + ",           localhost,           shop-hello",
      "127.0.0.1:5000/shop-hello:" + TAG + ",      127.0.0.1:5000,      shop-hello",
      "[::1]:5000/shop-hello:" + TAG + ",          '[::1]:5000',        shop-hello",
      "Registry.Example.COM/a.b/c__d/e---f:" + TAG + ", registry.example.com, a.b/c__d/e---f"})
  void aRegistryWithAPortOrAPathIsStillOneHost(String image, String registry, String repository) {
    assertThat(ImageReference.parse(image)).isEqualTo(new ImageReference(registry, repository, TAG));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "''                                       | must not be blank",
      "registry.local:5000/shop-hello           | has no tag",
      "registry.local:5000/shop-hello@sha256:ab | has a digest",
      "shop-hello:" + TAG + "                   | names no registry host",
      "registry/shop-hello:" + TAG + "          | names no registry host",
      "registry.local:5000/Shop-Hello:" + TAG + "| repository `Shop-Hello`",
      "registry.local:5000/shop//hello:" + TAG + "| repository `shop//hello`",
      "registry.local:5000/shop-hello:          | tag ``",
      "registry.local:5000/shop-hello:-x        | tag `-x`",
      "registry.local:x/shop-hello:" + TAG + "  | registry `registry.local:x`",
      "reg_istry.local/shop-hello:" + TAG + "   | registry `reg_istry.local`"})
  void aMalformedImageIsRejectedWithWhatIsWrong(String image, String message) {
    assertThatThrownBy(() -> ImageReference.parse(image))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void aTagLongerThan128CharactersIsRejected() {
    assertThatThrownBy(() -> new ImageReference("registry.local", "shop-hello", "a".repeat(129)))
        .hasMessageContaining("1 to 128");
    assertThat(new ImageReference("registry.local", "shop-hello", "a".repeat(128)).tag()).hasSize(128);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "none", value = {
      "docker.io/library/node:22-bookworm-slim   | docker.io",
      "node:22-bookworm-slim                     | docker.io",
      "library/node:22                           | docker.io",
      "Registry.Local:5000/node:22               | registry.local:5000",
      "localhost/node:22                         | localhost",
      "docker://mirror.example.com/node:22       | mirror.example.com",
      "oci-archive:/images/nodejs22.tar          | none",
      "oci:/images/layout:nodejs22               | none",
      "docker-archive:/images/node.tar           | none",
      "containers-storage:localhost/node:22      | none"})
  void theRegistryAPullOfABaseImageTalksTo(String image, String host) {
    assertThat(ImageReference.registryHostOf(image)).isEqualTo(java.util.Optional.ofNullable(host));
  }
}
