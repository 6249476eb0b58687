package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import org.junit.jupiter.api.Test;

class GitLabParserTest {

  private final GitLabParser parser = new GitLabParser();

  @Test
  void aPushHookNamesTheProjectByEveryUrlAndCarriesTheToken() throws Exception {
    Delivery d = parser.parse(Headers.of(
        "X-Gitlab-Event", "Push Hook",
        "X-Gitlab-Event-UUID", "13792a34-cac6-4fda-95a8-c58e00a3954e",
        "X-Gitlab-Token", "s3cret"), Samples.read("gitlab-push.json"));

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PUSH);
    assertThat(d.deliveryId()).isEqualTo("13792a34-cac6-4fda-95a8-c58e00a3954e");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey)
        .containsOnly("gitlab.example.com/platform/functions/orders");
    assertThat(d.repositories()).hasSize(3);
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/heads/main", "da1560886d4f094c3e6c9ef40349f7d38b5d27d7"));
    assertThat(d.proof()).isEqualTo(new Proof.Token("s3cret"));
  }

  @Test
  void aTagPushReportsTheTaggedCommitNotTheTagObject() throws Exception {
    Delivery d = parser.parse(Headers.of("X-Gitlab-Event", "Tag Push Hook"), Samples.read("gitlab-tag-push.json"));
    assertThat(d.changes()).containsExactly(
        new RefChange("refs/tags/v1.0.0", "da1560886d4f094c3e6c9ef40349f7d38b5d27d7"));
  }

  @Test
  void theIdempotencyKeyIsTheDeliveryIdBecauseRetriesKeepIt() throws Exception {
    Delivery d = parser.parse(Headers.of("X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", "event",
        "Idempotency-Key", "retry-stable"), Samples.read("gitlab-push.json"));
    assertThat(d.deliveryId()).isEqualTo("retry-stable");
  }

  @Test
  void withoutATokenThereIsNoProof() throws Exception {
    Delivery d = parser.parse(Headers.of("X-Gitlab-Event", "Push Hook"), Samples.read("gitlab-push.json"));
    assertThat(d.proof()).isInstanceOf(Proof.Absent.class);
  }

  @Test
  void otherHooksAreIgnored() throws Exception {
    assertThat(parser.parse(Headers.of("X-Gitlab-Event", "Pipeline Hook"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
    assertThat(parser.parse(Headers.of("X-Gitlab-Event", "System Hook"),
        Samples.bytes("{\"object_kind\":\"repository_update\"}")).kind()).isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void aSystemHookPushIsAPush() throws Exception {
    assertThat(parser.parse(Headers.of("X-Gitlab-Event", "System Hook"), Samples.read("gitlab-push.json")).kind())
        .isEqualTo(Delivery.Kind.PUSH);
  }

  @Test
  void aMissingRefIsNamed() {
    assertThatThrownBy(() -> parser.parse(Headers.of("X-Gitlab-Event", "Push Hook"),
        Samples.bytes("{\"project\":{\"git_http_url\":\"https://gitlab.com/a/b.git\"}}")))
        .hasMessage("payload field ref is missing");
  }
}
