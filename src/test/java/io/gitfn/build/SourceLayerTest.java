package io.gitfn.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.api.function.FunctionRuntime;
import io.gitfn.image.LayerDigests;
import io.gitfn.image.LayerEntry;
import io.gitfn.image.LayerTooLargeException;
import io.gitfn.image.ReproducibleLayer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourceLayerTest {

  @Test
  void aNodeFunctionsFilesGoWhereTheDockerfileCopiesThem() {
    List<LayerEntry> entries = SourceLayer.entries(FunctionRuntime.NODEJS22, "module.exports = {}", " ", "{}");

    assertThat(entries).extracting(LayerEntry::path).containsExactly(
        "gitfn/function/handler.js", "gitfn/function/package.json", "gitfn/function/package-lock.json");
    assertThat(entries).allSatisfy(entry -> assertThat(entry.mode()).isEqualTo(0644));
    assertThat(entries.get(1).size()).as("blank dependencies are {}, as Kyma reads them").isEqualTo(2);
  }

  @Test
  void aPythonFunctionHasNoLockFile() {
    assertThat(SourceLayer.entries(FunctionRuntime.PYTHON312, "def main(e, c): pass", "six", "ignored"))
        .extracting(LayerEntry::path)
        .containsExactly("gitfn/function/handler.py", "gitfn/function/requirements.txt");
  }

  @Test
  void theSameSourceGivesTheSameLayerBytes() throws IOException {
    String handler = "module.exports = { main: () => 'a' }";
    assertThat(digests(handler)).isEqualTo(digests(handler));
    assertThat(digests("module.exports = { main: () => 'b' }"))
        .isNotEqualTo(digests("module.exports = { main: () => 'a' }"));
  }

  @Test
  void aSourceOverTheCapIsRefusedNamingIt() {
    String huge = "x".repeat((int) SourceLayer.LIMITS.maxBytes());
    assertThatThrownBy(() -> digests(huge)).isInstanceOf(LayerTooLargeException.class)
        .hasMessage("the layer is larger than its cap of 2097152 bytes");
  }

  private static LayerDigests digests(String source) throws IOException {
    return ReproducibleLayer.write(SourceLayer.entries(FunctionRuntime.NODEJS22, source, "{}", null),
        new ByteArrayOutputStream(), SourceLayer.LIMITS);
  }
}
