package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import io.gitfn.trigger.webhook.PullRequestChange.Action;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BitbucketPullRequestTest {

  private static final String CLOUD = "bitbucket-cloud-pull-request.json";
  private static final String SERVER = "bitbucket-server-pull-request.json";

  private final BitbucketParser parser = new BitbucketParser();

  private Delivery parse(String eventKey, byte[] body) throws MalformedDeliveryException {
    return parser.parse(Headers.of("X-Event-Key", eventKey, "X-Request-UUID", "b5",
        "X-Hub-Signature", Samples.sha256Header("s3cret", body)), body);
  }

  @Test
  void aCloudPullRequestHasShortHashesAndNoLabels() throws Exception {
    byte[] body = Samples.read(CLOUD);
    Delivery d = parse("pullrequest:created", body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(d.deliveryId()).isEqualTo("b5");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("bitbucket.org/gitfn-demo/orders");
    assertThat(d.pullRequest()).isEqualTo(new PullRequestChange(5, Action.OPENED, "709d658dc5b6",
        "feature/quantity", "main", List.of(), false, "orders: validate the quantity", "ada"));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"pullrequest:created, OPENED", "pullrequest:updated, UPDATED", "pullrequest:fulfilled, MERGED",
      "pullrequest:rejected, CLOSED"})
  void eachCloudEventKeyMapsToWhatGitfnCaresAbout(String eventKey, Action expected) throws Exception {
    assertThat(parse(eventKey, Samples.read(CLOUD)).pullRequest().action()).isEqualTo(expected);
  }

  @Test
  void aCloudSourceInAnotherRepositoryIsAFork() throws Exception {
    String fork = new String(Samples.read(CLOUD)).replaceFirst(
        "\"repository\": \\{\"type\": \"repository\", \"full_name\": \"gitfn-demo/orders\"",
        "\"repository\": {\"type\": \"repository\", \"full_name\": \"ada/orders\"");
    Delivery d = parse("pullrequest:created", Samples.bytes(fork));
    assertThat(d.pullRequest().fromFork()).isTrue();
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("bitbucket.org/gitfn-demo/orders");
  }

  @Test
  void aServerPullRequestIsMatchedByTheTargetRepositorysCloneUrls() throws Exception {
    Delivery d = parse("pr:from_ref_updated", Samples.read(SERVER));

    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey)
        .containsExactly("bitbucket.example.com/fn/orders", "bitbucket.example.com/scm/fn/orders");
    // Full refs in fromRef and toRef become branch names.
    assertThat(d.pullRequest()).isEqualTo(new PullRequestChange(9, Action.UPDATED,
        "ef8755f06ee4b28c96a847a95cb8ec8ed6ddd1ca", "feature/quantity", "main", List.of(), false,
        "orders: validate the quantity", "admin"));
  }

  @ParameterizedTest
  @CsvSource({"pr:opened, OPENED", "pr:from_ref_updated, UPDATED", "pr:merged, MERGED", "pr:declined, CLOSED",
      "pr:deleted, CLOSED", "pr:reopened, REOPENED"})
  void eachServerEventKeyMapsToWhatGitfnCaresAbout(String eventKey, Action expected) throws Exception {
    assertThat(parse(eventKey, Samples.read(SERVER)).pullRequest().action()).isEqualTo(expected);
  }

  @Test
  void aServerSourceInAnotherRepositoryIsAFork() throws Exception {
    String fork = new String(Samples.read(SERVER)).replaceFirst("\"id\": 84, \"name\": \"orders\"",
        "\"id\": 85, \"name\": \"orders\"");
    assertThat(parse("pr:opened", Samples.bytes(fork)).pullRequest().fromFork()).isTrue();
  }

  @Test
  void otherPullRequestEventKeysAreOtherEvents() throws Exception {
    assertThat(parse("pullrequest:approved", Samples.bytes("{}")).kind()).isEqualTo(Delivery.Kind.OTHER);
    assertThat(parse("pr:comment:added", Samples.bytes("{}")).kind()).isEqualTo(Delivery.Kind.OTHER);
    assertThat(parse("pr:modified", Samples.bytes("{}")).kind()).isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void aServerToRefOutsideBranchesOrWithoutCloneLinksIsRefused() {
    assertThatThrownBy(() -> parse("pr:opened", Samples.edited(SERVER, "\"id\": \"refs/heads/main\"",
        "\"id\": \"refs/tags/v1\"")))
        .isInstanceOf(MalformedDeliveryException.class)
        .hasMessage("payload field pullRequest.toRef.id is not a branch: refs/tags/v1");
    String noLinks = new String(Samples.read(SERVER)).replaceAll("\"clone\": \\[[^\\]]*]", "\"clone\": []");
    assertThatThrownBy(() -> parse("pr:opened", Samples.bytes(noLinks)))
        .hasMessage("payload field pullRequest.toRef.repository.links.clone is missing or not a list");
  }
}
