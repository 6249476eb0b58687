package io.gitfn.image;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageConfigTest {

  private static final String NODE_BASE = """
      {"architecture":"amd64","os":"linux","created":"2026-01-01T10:00:00Z",
       "config":{"Env":["PATH=/usr/local/bin:/usr/bin","NODE_VERSION=22.1.0"],"Cmd":["node"],"WorkingDir":"/"},
       "rootfs":{"type":"layers","diff_ids":["sha256:aaaa"]},
       "history":[{"created":"2026-01-01T10:00:00Z","created_by":"debian"}]}""";

  private static final LayerDigests SOURCE = new LayerDigests("sha256:c0", "sha256:d0", 100);

  @Test
  void aLayerGoesOnTopWithItsHistoryAtTheEpoch() throws IOException {
    ImageConfig config = ImageConfig.parse(NODE_BASE.getBytes(UTF_8)).withLayer(SOURCE, "gitfn source layer");

    assertThat(config.diffIds()).containsExactly("sha256:aaaa", "sha256:d0");
    assertThat(new String(config.bytes(), UTF_8))
        .contains("\"created\":\"1970-01-01T00:00:00Z\",\"config\"")
        .endsWith("{\"created\":\"1970-01-01T00:00:00Z\",\"created_by\":\"gitfn source layer\"}]}");
  }

  @Test
  void theProcessIsSetAndTheBaseImagesEnvironmentKeptInItsOrder() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("NODE_VERSION", "overridden");
    env.put("FUNC_RUNTIME", "nodejs22");

    String config = new String(ImageConfig.parse(NODE_BASE.getBytes(UTF_8))
        .runs(List.of("node", "/usr/src/app/runtime/server.mjs"), "1000", "/usr/src/app/function", env)
        .bytes(), UTF_8);

    assertThat(config).contains("\"Env\":[\"PATH=/usr/local/bin:/usr/bin\",\"NODE_VERSION=overridden\","
        + "\"FUNC_RUNTIME=nodejs22\"]");
    assertThat(config).contains("\"Entrypoint\":[\"node\",\"/usr/src/app/runtime/server.mjs\"]");
    assertThat(config).contains("\"User\":\"1000\"").contains("\"WorkingDir\":\"/usr/src/app/function\"");
    assertThat(config).as("the base image's command would become the entrypoint's arguments").doesNotContain("Cmd");
  }

  @Test
  void theSameInputsGiveTheSameBytes() throws IOException {
    byte[] first = ImageConfig.parse(NODE_BASE.getBytes(UTF_8)).withLayer(SOURCE, "s").bytes();
    byte[] second = ImageConfig.parse(NODE_BASE.getBytes(UTF_8)).withLayer(SOURCE, "s").bytes();

    assertThat(second).isEqualTo(first);
  }

  @Test
  void whatIsNotAConfigOrTooLargeIsRefused() {
    assertThatThrownBy(() -> ImageConfig.parse("{\"layers\":[]}".getBytes(UTF_8)))
        .hasMessage("not an image config: it has no rootfs.diff_ids");
    assertThatThrownBy(() -> ImageConfig.parse(new byte[ImageConfig.MAX_BYTES + 1]))
        .hasMessageContaining("larger than the cap of " + ImageConfig.MAX_BYTES);
  }
}
