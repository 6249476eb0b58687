package io.gitfn.notify;

import static io.gitfn.notify.Samples.SHA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommitStatusTest {

  private static CommitStatus withDescription(String description) {
    return new CommitStatus(SHA, CommitState.SUCCESS, "gitfn", description, null);
  }

  @Test
  void aSha256CommitIdIsAsGoodAsASha1One() {
    String sha256 = "ab".repeat(32);
    assertThat(new CommitStatus(sha256, CommitState.PENDING, "gitfn", "", null).sha()).isEqualTo(sha256);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0123456789ABCDEF0123456789ABCDEF01234567", "0123abc", "main", ""})
  void aShaThatIsNotAFullLowerCaseCommitIdIsRefused(String sha) {
    assertThatThrownBy(() -> new CommitStatus(sha, CommitState.SUCCESS, "gitfn", "", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sha `" + sha + "` is not a full commit id");
  }

  @Test
  void aContextIsRequiredAndAtMost255Characters() {
    assertThatThrownBy(() -> new CommitStatus(SHA, CommitState.SUCCESS, " ", "", null))
        .hasMessageContaining("context is empty");
    assertThatThrownBy(() -> new CommitStatus(SHA, CommitState.SUCCESS, "c".repeat(256), "", null))
        .hasMessageContaining("context is longer than 255 characters");
    assertThat(new CommitStatus(SHA, CommitState.SUCCESS, "c".repeat(255), "", null).context()).hasSize(255);
  }

  @Test
  void aContextWithALineBreakIsRefused() {
    assertThatThrownBy(() -> new CommitStatus(SHA, CommitState.SUCCESS, "gitfn\nX-Evil: 1", "", null))
        .hasMessageContaining("has a control character in it");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/shop/functions", "ftp://example.com/x", "javascript:alert(1)", "https://"})
  void aTargetUrlMustBeAnAbsoluteWebAddress(String url) {
    assertThatThrownBy(() -> new CommitStatus(SHA, CommitState.SUCCESS, "gitfn", "", url))
        .hasMessageContaining("target URL `" + url + "` is not an absolute http or https URL");
  }

  @Test
  void noDescriptionIsAnEmptyOne() {
    assertThat(withDescription(null).description()).isEmpty();
  }

  @Test
  void aDescriptionThatFitsIsKeptWhole() {
    String fits = "d".repeat(140);
    assertThat(withDescription(fits).descriptionWithin(140)).isEqualTo(fits);
  }

  @Test
  void aLongerDescriptionIsCutToTheLimitEndingInAnEllipsis() {
    String cut = withDescription("d".repeat(141)).descriptionWithin(140);
    assertThat(cut).hasSize(140).endsWith("d...");
  }

  @Test
  void aCutNeverSplitsACharacterInTwo() {
    // U+1F680 is two UTF-16 chars; a cut by chars could leave half of one.
    String rockets = "\uD83D\uDE80".repeat(10);
    String cut = withDescription(rockets).descriptionWithin(5);
    assertThat(cut).isEqualTo("\uD83D\uDE80\uD83D\uDE80...");
    assertThat(cut.codePointCount(0, cut.length())).isEqualTo(5);
  }
}
