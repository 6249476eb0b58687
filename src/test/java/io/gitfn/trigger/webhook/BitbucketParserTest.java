package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import org.junit.jupiter.api.Test;

class BitbucketParserTest {

  private final BitbucketParser parser = new BitbucketParser();

  @Test
  void aCloudPushListsEveryBranchAndTagItMoved() throws Exception {
    byte[] body = Samples.read("bitbucket-cloud-push.json");
    Delivery d = parser.parse(Headers.of(
        "X-Event-Key", "repo:push",
        "X-Request-UUID", "afe2a3ba-2a02-4a8a-a1b9-0b3b1f0bb1b7",
        "X-Hub-Signature", Samples.sha256Header("s3cret", body)), body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PUSH);
    assertThat(d.deliveryId()).isEqualTo("afe2a3ba-2a02-4a8a-a1b9-0b3b1f0bb1b7");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsExactly("bitbucket.org/gitfn-demo/orders");
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/main", "709d658dc5b6d6afcd46049c2f332ee3f515a67d"),
        new RefChange("refs/tags/v1.2.0", "709d658dc5b6d6afcd46049c2f332ee3f515a67d"),
        new RefChange("refs/heads/feature/old", null));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @Test
  void aServerPushMatchesByBothCloneUrls() throws Exception {
    byte[] body = Samples.read("bitbucket-server-push.json");
    Delivery d = parser.parse(Headers.of(
        "X-Event-Key", "repo:refs_changed",
        "X-Request-Id", "d6a2a2ce-0d9c-4f3f-9b0a-5d3b8b0c1e2f"), body);

    assertThat(d.deliveryId()).isEqualTo("d6a2a2ce-0d9c-4f3f-9b0a-5d3b8b0c1e2f");
    // The HTTP clone URL carries /scm/; the SSH one does not.
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey)
        .containsExactly("bitbucket.example.com/fn/orders", "bitbucket.example.com/scm/fn/orders");
    assertThat(d.repositories()).extracting(RepositoryUrl::fetchUrl)
        .noneMatch(url -> url.contains("admin@bitbucket"));
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/main", "178864a7d521b6f5e720b386b2c2b0ef8563e0dc"));
  }

  @Test
  void aServerDeleteHasNoNewCommit() throws Exception {
    String body = new String(Samples.read("bitbucket-server-push.json"))
        .replace("\"toHash\": \"178864a7d521b6f5e720b386b2c2b0ef8563e0dc\"",
            "\"toHash\": \"0000000000000000000000000000000000000000\"")
        .replace("\"type\": \"UPDATE\"", "\"type\": \"DELETE\"");
    Delivery d = parser.parse(Headers.of("X-Event-Key", "repo:refs_changed"), Samples.bytes(body));
    assertThat(d.changes()).containsExactly(new RefChange("refs/heads/main", null));
  }

  @Test
  void testConnectionIsAPing() throws Exception {
    assertThat(parser.parse(Headers.of("X-Event-Key", "diagnostics:ping"),
        Samples.read("bitbucket-server-ping.json")).kind()).isEqualTo(Delivery.Kind.PING);
  }

  @Test
  void otherEventKeysAreIgnored() throws Exception {
    assertThat(parser.parse(Headers.of("X-Event-Key", "pullrequest:comment_created"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void aSha1OrUnprefixedSignatureIsNoProof() throws Exception {
    byte[] body = Samples.read("bitbucket-cloud-push.json");
    assertThat(parser.parse(Headers.of("X-Event-Key", "repo:push",
        "X-Hub-Signature", "sha1=" + Samples.hmacHex("s3cret", body)), body).proof())
        .isInstanceOf(Proof.Absent.class);
    assertThat(parser.parse(Headers.of("X-Event-Key", "repo:push",
        "X-Hub-Signature", Samples.hmacHex("s3cret", body)), body).proof())
        .isInstanceOf(Proof.Absent.class);
  }

  @Test
  void missingFieldsAreNamed() {
    assertThatThrownBy(() -> parser.parse(Headers.of("X-Event-Key", "repo:push"),
        Samples.bytes("{\"repository\":{\"full_name\":\"a/b\"}}")))
        .hasMessage("payload field push.changes is missing or not a list");
    assertThatThrownBy(() -> parser.parse(Headers.of("X-Event-Key", "repo:push"),
        Samples.bytes("{\"repository\":{\"full_name\":\"a/b\"},\"push\":{\"changes\":[{\"new\":{\"type\":\"branch\","
            + "\"name\":\"main\",\"target\":{}}}]}}")))
        .hasMessage("payload field push.changes[0].new.target.hash is missing");
    assertThatThrownBy(() -> parser.parse(Headers.of("X-Event-Key", "repo:refs_changed"),
        Samples.bytes("{\"repository\":{\"links\":{\"clone\":[{\"href\":\"https://h/scm/a/b.git\"}]}},"
            + "\"changes\":[{\"toHash\":\"abc\"}]}")))
        .hasMessage("payload field changes[0].ref.id is missing");
    assertThatThrownBy(() -> parser.parse(Headers.of(), Samples.bytes("{}")))
        .hasMessage("header X-Event-Key is missing");
  }
}
