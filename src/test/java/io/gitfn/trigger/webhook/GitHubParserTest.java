package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import org.junit.jupiter.api.Test;

class GitHubParserTest {

  private final GitHubParser parser = new GitHubParser();

  @Test
  void aPushNamesTheRepositoryByEveryUrlTheRefAndTheNewCommit() throws Exception {
    byte[] body = Samples.read("github-push.json");
    Delivery d = parser.parse(Headers.of(
        "X-GitHub-Event", "push",
        "X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958",
        "X-Hub-Signature-256", Samples.sha256Header("s3cret", body)), body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PUSH);
    assertThat(d.forge()).isEqualTo(Forge.GITHUB);
    assertThat(d.deliveryId()).isEqualTo("72d3162e-cc78-11e3-81ab-4c9367dc0958");
    assertThat(d.repositories()).extracting(RepositoryUrl::fetchUrl).containsExactly(
        "https://github.com/gitfn-demo/orders.git", "git@github.com:gitfn-demo/orders.git",
        "https://github.com/gitfn-demo/orders");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("github.com/gitfn-demo/orders");
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/main", "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c"));
    assertThat(d.proof()).isInstanceOf(Proof.HmacSha256.class);
  }

  @Test
  void aDeletedBranchHasNoNewCommit() throws Exception {
    Delivery d = parser.parse(Headers.of("X-GitHub-Event", "push"), Samples.read("github-delete.json"));
    assertThat(d.changes()).containsExactly(new RefChange("refs/heads/feature/old", null));
  }

  @Test
  void pingIsAPingAndItsBodyIsNotRead() throws Exception {
    Delivery d = parser.parse(Headers.of("X-GitHub-Event", "ping", "X-GitHub-Delivery", "1"),
        Samples.read("github-ping.json"));
    assertThat(d.kind()).isEqualTo(Delivery.Kind.PING);
    assertThat(d.changes()).isEmpty();
  }

  @Test
  void otherEventsAreIgnoredNotRejected() throws Exception {
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "issues"), Samples.bytes("not even json")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void theUnsignedAndTheSha1SignedHaveNoProof() throws Exception {
    byte[] body = Samples.read("github-push.json");
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "push"), body).proof())
        .isEqualTo(new Proof.Absent("header X-Hub-Signature-256 is missing: the delivery is not signed"));
    // The legacy SHA-1 header alone does not count.
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "push", "X-Hub-Signature", "sha1=abc"), body).proof())
        .isInstanceOf(Proof.Absent.class);
  }

  @Test
  void aMissingEventHeaderOrFieldIsNamed() {
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.read("github-push.json")))
        .isInstanceOf(MalformedDeliveryException.class).hasMessage("header X-GitHub-Event is missing");
    assertThatThrownBy(() -> parser.parse(Headers.of("X-GitHub-Event", "push"),
        Samples.bytes("{\"after\":\"abc\",\"repository\":{\"clone_url\":\"https://github.com/a/b.git\"}}")))
        .hasMessage("payload field ref is missing");
    assertThatThrownBy(() -> parser.parse(Headers.of("X-GitHub-Event", "push"),
        Samples.bytes("{\"ref\":\"refs/heads/main\",\"repository\":{}}")))
        .hasMessageStartingWith("payload field repository.clone_url is missing");
  }

  @Test
  void aFormEncodedBodyIsRefusedWithTheFix() {
    assertThatThrownBy(() -> parser.parse(Headers.of("X-GitHub-Event", "push"), Samples.bytes("payload=%7B%7D")))
        .hasMessageContaining("application/json");
  }
}
