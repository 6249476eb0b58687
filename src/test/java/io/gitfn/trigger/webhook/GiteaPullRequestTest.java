package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import io.gitfn.trigger.webhook.PullRequestChange.Action;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GiteaPullRequestTest {

  private static final String SAMPLE = "gitea-pull-request.json";

  private final GiteaParser parser = new GiteaParser();

  private Delivery parse(String type, byte[] body) throws MalformedDeliveryException {
    return parser.parse(Headers.of("X-Gitea-Event", "pull_request", "X-Gitea-Event-Type", type,
        "X-Gitea-Delivery", "g3", "X-Gitea-Signature", Samples.hmacHex("s3cret", body)), body);
  }

  private Delivery withAction(String action, String... more) throws MalformedDeliveryException {
    String[] edits = new String[more.length + 2];
    edits[0] = "\"action\": \"synchronized\"";
    edits[1] = "\"action\": \"" + action + "\"";
    System.arraycopy(more, 0, edits, 2, more.length);
    return parse("pull_request", Samples.edited(SAMPLE, edits));
  }

  @Test
  void aSynchronizedPullRequestIsANewHeadCommit() throws Exception {
    byte[] body = Samples.read(SAMPLE);
    Delivery d = parse("pull_request_sync", body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(d.deliveryId()).isEqualTo("g3");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey)
        .containsOnly("gitea.example.com/gitfn-demo/orders");
    assertThat(d.pullRequest()).isEqualTo(new PullRequestChange(3, Action.UPDATED,
        "bffeb74224043ba2feb48d137756c8a9331c449a", "feature/quantity", "main", List.of("preview"), false,
        "orders: validate the quantity", "gitea"));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"opened, OPENED", "label_updated, LABELED", "label_cleared, LABELED", "reopened, REOPENED",
      "edited, OTHER", "assigned, OTHER"})
  void eachActionMapsToWhatGitfnCaresAbout(String action, Action expected) throws Exception {
    assertThat(withAction(action).pullRequest().action()).isEqualTo(expected);
  }

  @Test
  void aClosedPullRequestIsMergedOnlyWhenMergedIsSet() throws Exception {
    assertThat(withAction("closed").pullRequest().action()).isEqualTo(Action.CLOSED);
    assertThat(withAction("closed", "\"merged\": false", "\"merged\": true").pullRequest().action())
        .isEqualTo(Action.MERGED);
  }

  @Test
  void aHeadRepositoryOtherThanTheBaseIsAFork() throws Exception {
    String other = new String(Samples.read(SAMPLE)).replace(
        "\"sha\": \"bffeb74224043ba2feb48d137756c8a9331c449a\",\n      \"repo_id\": 140",
        "\"sha\": \"bffeb74224043ba2feb48d137756c8a9331c449a\",\n      \"repo_id\": 141");
    assertThat(parse("pull_request", Samples.bytes(other)).pullRequest().fromFork()).isTrue();
  }

  @Test
  void forgejoHeadersWorkAndReviewsAreNotPullRequestChanges() throws Exception {
    byte[] body = Samples.read(SAMPLE);
    Delivery forgejo = parser.parse(Headers.of("X-Forgejo-Event", "pull_request",
        "X-Forgejo-Event-Type", "pull_request_sync", "X-Forgejo-Signature", Samples.hmacHex("s3cret", body)), body);
    assertThat(forgejo.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(parser.parse(Headers.of("X-Gitea-Event", "pull_request",
        "X-Gitea-Event-Type", "pull_request_review_approved"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
    assertThat(parser.parse(Headers.of("X-Gitea-Event", "pull_request_comment"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void anUnsignedPullRequestHasNoProof() throws Exception {
    assertThat(parser.parse(Headers.of("X-Gitea-Event", "pull_request"), Samples.read(SAMPLE)).proof())
        .isInstanceOf(Proof.Absent.class);
  }

  @Test
  void missingFieldsAreNamed() {
    assertThatThrownBy(() -> parse("pull_request", Samples.edited(SAMPLE, "\"ref\": \"main\",", "")))
        .isInstanceOf(MalformedDeliveryException.class).hasMessage("payload field pull_request.base.ref is missing");
  }
}
