package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommentMarkerTest {

  @Test
  void aPreviewMarkerNamesTheFunctionRepository() {
    assertThat(CommentMarker.preview("shop", "functions").line()).isEqualTo("<!-- gitfn-preview:shop/functions -->");
  }

  @Test
  void aMarkedBodyStartsWithTheMarkerAndOnlySuchABodyIsMarked() {
    CommentMarker marker = CommentMarker.preview("shop", "functions");

    assertThat(marker.mark("Preview")).isEqualTo("<!-- gitfn-preview:shop/functions -->\nPreview");
    assertThat(marker.marks(marker.mark("Preview"))).isTrue();
    assertThat(marker.marks("<!-- gitfn-preview:shop/functions -->")).isTrue();
    assertThat(marker.marks("> <!-- gitfn-preview:shop/functions -->\n> Preview")).isFalse();
    assertThat(marker.marks("<!-- gitfn-preview:shop/functions-2 -->\nPreview")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gitfn", "<!-- -->", "<!-- a -- b -->", "<!-- a --> shown", "<!-- a\n -->"})
  void aMarkerIsOneLineThatAForgeDoesNotShow(String line) {
    assertThatThrownBy(() -> new CommentMarker(line))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a comment marker is one line `<!-- text -->`");
  }
}
