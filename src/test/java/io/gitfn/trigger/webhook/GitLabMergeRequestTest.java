package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import io.gitfn.trigger.webhook.PullRequestChange.Action;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GitLabMergeRequestTest {

  private static final String SAMPLE = "gitlab-merge-request.json";
  private static final String OLDREV = ",\n    \"oldrev\": \"3f786850e387550fdab836ed7e6dc881de23001b\"";
  private static final String UPDATED_AT =
      "\"updated_at\": {\"previous\": \"2024-05-14 10:02:44 UTC\", \"current\": \"2024-05-14 10:12:44 UTC\"}";

  private final GitLabParser parser = new GitLabParser();

  private Delivery parse(byte[] body) throws MalformedDeliveryException {
    return parser.parse(Headers.of("X-Gitlab-Event", "Merge Request Hook", "Idempotency-Key", "k7",
        "X-Gitlab-Token", "s3cret"), body);
  }

  private Action action(String action) throws MalformedDeliveryException {
    return parse(Samples.edited(SAMPLE, "\"action\": \"update\"", "\"action\": \"" + action + "\""))
        .pullRequest().action();
  }

  @Test
  void anUpdateWithOldrevIsANewHeadCommitOfTheMergeRequestInTheTargetProject() throws Exception {
    Delivery d = parse(Samples.read(SAMPLE));

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(d.deliveryId()).isEqualTo("k7");
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey)
        .containsOnly("gitlab.example.com/gitfn-demo/orders");
    // iid is the number people see; id is global to the instance.
    assertThat(d.pullRequest()).isEqualTo(new PullRequestChange(7, Action.UPDATED,
        "da1560886d4f094c3e6c9ef40349f7d38b5d27d7", "feature/quantity", "main", List.of("preview", "area::orders"),
        false, "orders: validate the quantity", "root"));
    assertThat(d.proof()).isEqualTo(new Proof.Token("s3cret"));
  }

  @ParameterizedTest
  @CsvSource({"open, OPENED", "reopen, REOPENED", "close, CLOSED", "merge, MERGED", "approved, OTHER",
      "unapproval, OTHER"})
  void eachActionMapsToWhatGitfnCaresAbout(String action, Action expected) throws Exception {
    assertThat(action(action)).isEqualTo(expected);
  }

  @Test
  void anUpdateWithoutOldrevIsALabelChangeWhenChangesNameLabelsAndOtherwiseNothing() throws Exception {
    byte[] labeled = Samples.edited(SAMPLE, OLDREV, "", UPDATED_AT,
        "\"labels\": {\"previous\": [], \"current\": [{\"id\": 206, \"title\": \"preview\"}]}");
    assertThat(parse(labeled).pullRequest().action()).isEqualTo(Action.LABELED);
    byte[] unlabeled = Samples.edited(SAMPLE, OLDREV, "", UPDATED_AT,
        "\"labels\": {\"previous\": [{\"id\": 206, \"title\": \"preview\"}], \"current\": []}");
    assertThat(parse(unlabeled).pullRequest().action()).isEqualTo(Action.LABELED);
    // A new title or description only.
    assertThat(parse(Samples.edited(SAMPLE, OLDREV, "")).pullRequest().action()).isEqualTo(Action.OTHER);
  }

  @Test
  void aSourceProjectOtherThanTheTargetIsAFork() throws Exception {
    assertThat(parse(Samples.edited(SAMPLE, "\"source_project_id\": 1", "\"source_project_id\": 2"))
        .pullRequest().fromFork()).isTrue();
    assertThat(parse(Samples.edited(SAMPLE, "\"source_project_id\": 1,", "")).pullRequest().fromFork())
        .as("an unknown source project").isTrue();
  }

  @Test
  void aSystemHookOfAMergeRequestIsOneToo() throws Exception {
    Delivery d = parser.parse(Headers.of("X-Gitlab-Event", "System Hook", "X-Gitlab-Token", "s3cret"),
        Samples.read(SAMPLE));
    assertThat(d.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(d.pullRequest().number()).isEqualTo(7);
  }

  @Test
  void withoutTheTokenThereIsNoProof() throws Exception {
    assertThat(parser.parse(Headers.of("X-Gitlab-Event", "Merge Request Hook"), Samples.read(SAMPLE)).proof())
        .isEqualTo(new Proof.Absent("header X-Gitlab-Token is missing: set the hook's secret token"));
  }

  @Test
  void missingFieldsAreNamed() {
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"iid\": 7,", "")))
        .isInstanceOf(MalformedDeliveryException.class).hasMessage("payload field object_attributes.iid is missing");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"id\": \"da1560886d4f094c3e6c9ef40349f7d38b5d27d7\",",
        "")))
        .hasMessage("payload field object_attributes.last_commit.id is missing");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"target_branch\": \"main\"", "\"target_branch\": \"\"")))
        .hasMessage("payload field object_attributes.target_branch is missing");
  }
}
