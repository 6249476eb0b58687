package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommentMarkerTest {

  private static final CommentMarker MARKER = CommentMarker.preview("shop", "functions");

  @ParameterizedTest
  @EnumSource(value = Forge.class, names = {"GITHUB", "GITLAB", "GITEA", "FORGEJO"})
  void onForgesThatHideHtmlCommentsTheMarkerIsOne(Forge forge) {
    assertThat(MARKER.line(forge)).isEqualTo("<!-- gitfn-preview:shop/functions -->");
  }

  @ParameterizedTest
  @EnumSource(value = Forge.class, names = {"BITBUCKET_CLOUD", "BITBUCKET_SERVER"})
  void onBitbucketWhichShowsRawHtmlAsTextTheMarkerIsALinkReferenceDefinition(Forge forge) {
    assertThat(MARKER.line(forge)).isEqualTo("[gitfn-preview:shop/functions]: #");
  }

  @ParameterizedTest
  @EnumSource(Forge.class)
  void aMarkedBodyStartsWithTheMarkerAndABlankLineAndOnlySuchABodyIsMarked(Forge forge) {
    String marked = MARKER.mark(forge, "Preview");

    assertThat(marked).isEqualTo(MARKER.line(forge) + "\n\nPreview");
    assertThat(MARKER.marks(forge, marked)).isTrue();
    assertThat(MARKER.marks(forge, MARKER.line(forge))).isTrue();
    assertThat(MARKER.marks(forge, "> " + marked)).isFalse();
    assertThat(MARKER.marks(forge, CommentMarker.preview("shop", "functions-2").mark(forge, "Preview"))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-x", "a--b", "a -->", "a]b", "a\nb", "gitfn preview"})
  void aKeyIsOneWordThatCannotEndTheMarkerEarly(String key) {
    assertThatThrownBy(() -> new CommentMarker(key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a comment marker's key is letters, digits and . _ : / -, without `--`");
  }

  @Test
  void aPreviewMarkerNamesTheFunctionRepository() {
    assertThat(MARKER.key()).isEqualTo("gitfn-preview:shop/functions");
  }
}
