package io.gitfn.notify;

import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.repository;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ForgeRequestTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "https://github.com/shop/functions", "https://gitlab.com/shop/functions", "https://gitea.com/shop/functions",
      "https://bitbucket.org/shop/functions", "https://bb.example/scm/SHOP/functions.git"})
  void noRequestPrintsItsToken(String url) {
    Forge forge = url.contains("bb.example") ? Forge.BITBUCKET_SERVER : repository(url).forge();
    ForgeRequest request = repository(url, forge).request(Samples.success(), TOKEN);

    assertThat(request.toString()).doesNotContain(TOKEN).contains("***").contains(request.uri().getHost());
  }

  @Test
  void aBasicAuthRequestPrintsNeitherThePasswordNorItsEncoding() {
    ForgeRequest request = repository("https://bitbucket.org/shop/functions").request(Samples.success(), "al:pw1234");

    assertThat(request.toString()).doesNotContain("pw1234").doesNotContain(request.headers().get("Authorization"));
  }

  @Test
  void aNotificationUrlPrintsWithoutItsQuery() {
    GenericNotification notification = new GenericNotification(GenericNotification.Kind.FUNCTION, "shop", "hello",
        "main@sha1:" + Samples.SHA, Samples.success(), "Ready", Instant.EPOCH, null);

    ForgeRequest request = notification.request(URI.create("https://hooks.example/in?key=s3cr3t"),
        "secret".getBytes(StandardCharsets.UTF_8));

    assertThat(request.toString()).doesNotContain("s3cr3t");
  }

  @Test
  void aRequestCannotBeChangedThroughItsBody() {
    ForgeRequest request = repository("https://github.com/shop/functions").request(Samples.success(), TOKEN);

    request.body()[0] = 'X';

    assertThat(request.body()[0]).isEqualTo((byte) '{');
  }

  @Test
  void theTokenLosesTheNewlineAShellLeftInTheSecret() {
    ForgeRequest request = repository("https://gitea.com/shop/functions").request(Samples.success(), TOKEN + "\n");

    assertThat(request.headers()).containsEntry("Authorization", "token " + TOKEN);
  }

  @Test
  void aTokenThatCannotGoInAHeaderIsRefusedWithoutBeingQuoted() {
    assertThatThrownBy(() -> repository("https://gitea.com/shop/functions").request(Samples.success(), "abc\r\ndef"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the Gitea token for commit statuses has a space or a control character inside it");
    assertThatThrownBy(() -> repository("https://github.com/shop/functions").request(Samples.success(), " "))
        .hasMessage("the GitHub token for commit statuses is empty");
  }

  @Test
  void aHeaderWithALineBreakIsRefused() {
    assertThatThrownBy(() -> new ForgeRequest("POST", URI.create("https://h.example/x"),
        Map.of("X-Evil", "a\r\nHost: elsewhere"), new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line break");
  }
}
