package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import org.junit.jupiter.api.Test;

class GiteaParserTest {

  private final GiteaParser parser = new GiteaParser();

  @Test
  void aGiteaPushIsSignedWithBareHex() throws Exception {
    byte[] body = Samples.read("gitea-push.json");
    Delivery d = parser.parse(Headers.of(
        "X-Gitea-Event", "push",
        "X-Gitea-Delivery", "f6266f16-1bf3-46a5-9ea4-602e06ead473",
        "X-Gitea-Signature", Samples.hmacHex("s3cret", body)), body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PUSH);
    assertThat(d.forge()).isEqualTo(Forge.GITEA);
    assertThat(d.deliveryId()).isEqualTo("f6266f16-1bf3-46a5-9ea4-602e06ead473");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("gitea.example.com/gitfn-demo/orders");
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/develop", "bffeb74224043ba2feb48d137756c8a9331c449a"));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @Test
  void forgejoHeadersWinOverTheGiteaCopies() throws Exception {
    byte[] body = Samples.read("gitea-push.json");
    Delivery d = parser.parse(Headers.of(
        "X-Forgejo-Event", "push",
        "X-Forgejo-Delivery", "forgejo-id",
        "X-Forgejo-Signature", Samples.hmacHex("s3cret", body),
        "X-Gitea-Event", "push",
        "X-Gitea-Delivery", "gitea-id",
        "X-Gitea-Signature", Samples.hmacHex("other", body)), body);

    assertThat(d.deliveryId()).isEqualTo("forgejo-id");
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "other")).isFalse();
  }

  @Test
  void aTestDeliveryOnAnEmptyRepositoryIsAPushWithNoCommit() throws Exception {
    byte[] body = Samples.bytes("{\"ref\":\"refs/heads/main\",\"before\":\"0000000000000000000000000000000000000000\","
        + "\"after\":\"0000000000000000000000000000000000000000\","
        + "\"repository\":{\"clone_url\":\"http://127.0.0.1:3000/org/empty.git\"}}");
    Delivery d = parser.parse(Headers.of("X-Gitea-Event", "push"), body);
    assertThat(d.changes()).containsExactly(new RefChange("refs/heads/main", null));
  }

  @Test
  void aPrefixedSignatureIsNotGiteas() throws Exception {
    byte[] body = Samples.read("gitea-push.json");
    Delivery d = parser.parse(Headers.of("X-Gitea-Event", "push",
        "X-Gitea-Signature", Samples.sha256Header("s3cret", body)), body);
    assertThat(d.proof()).isInstanceOf(Proof.Absent.class);
  }

  @Test
  void otherEventsAreIgnoredAndAMissingEventHeaderIsNamed() throws Exception {
    assertThat(parser.parse(Headers.of("X-Gitea-Event", "issues"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.read("gitea-push.json")))
        .hasMessageContaining("X-Gitea-Event");
  }
}
