package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.source.RepositoryUrl;
import io.gitfn.trigger.webhook.PullRequestChange.Action;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GitHubPullRequestTest {

  private static final String SAMPLE = "github-pull-request.json";

  private final GitHubParser parser = new GitHubParser();

  private Delivery parse(byte[] body) throws MalformedDeliveryException {
    return parser.parse(Headers.of("X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "d42",
        "X-Hub-Signature-256", Samples.sha256Header("s3cret", body)), body);
  }

  private Delivery withAction(String action, String... more) throws MalformedDeliveryException {
    String[] edits = new String[more.length + 2];
    edits[0] = "\"action\": \"opened\"";
    edits[1] = "\"action\": \"" + action + "\"";
    System.arraycopy(more, 0, edits, 2, more.length);
    return parse(Samples.edited(SAMPLE, edits));
  }

  @Test
  void anOpenedPullRequestNamesItsBaseRepositoryHeadAndLabels() throws Exception {
    byte[] body = Samples.read(SAMPLE);
    Delivery d = parse(body);

    assertThat(d.kind()).isEqualTo(Delivery.Kind.PULL_REQUEST);
    assertThat(d.event()).isEqualTo("pull_request");
    assertThat(d.deliveryId()).isEqualTo("d42");
    assertThat(d.changes()).isEmpty();
    assertThat(d.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("github.com/gitfn-demo/orders");
    assertThat(d.pullRequest()).isEqualTo(new PullRequestChange(42, Action.OPENED,
        "6dcb09b5b57875f334f61aebed695e2e4193db5e", "feature/quantity", "main", List.of("preview", "area/orders"),
        false, "orders: validate the quantity", "octocat"));
    assertThat(new SignatureVerifier().verifies(d.proof(), body, "s3cret")).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"synchronize, UPDATED", "labeled, LABELED", "unlabeled, LABELED", "reopened, REOPENED",
      "edited, OTHER", "ready_for_review, OTHER", "assigned, OTHER"})
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
  void aHeadInAnotherRepositoryOrAGoneOneIsAFork() throws Exception {
    // The head comes first in the sample.
    String other = new String(Samples.read(SAMPLE))
        .replaceFirst("\"repo\": \\{\"id\": 1296269", "\"repo\": {\"id\": 777");
    Delivery fork = parse(Samples.bytes(other));
    assertThat(fork.pullRequest().fromFork()).isTrue();
    // The base repository stays the match key: that is where the FunctionRepository points.
    assertThat(fork.repositories()).extracting(RepositoryUrl::matchKey).containsOnly("github.com/gitfn-demo/orders");

    String deleted = new String(Samples.read(SAMPLE)).replaceFirst("\"repo\": \\{[^}]*}", "\"repo\": null");
    assertThat(parse(Samples.bytes(deleted)).pullRequest().fromFork()).isTrue();
  }

  @Test
  void otherPullRequestEventsAreNotPullRequests() throws Exception {
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "pull_request_review"), Samples.bytes("{}")).kind())
        .isEqualTo(Delivery.Kind.OTHER);
  }

  @Test
  void theSignatureRulesAreThoseOfAPush() throws Exception {
    byte[] body = Samples.read(SAMPLE);
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "pull_request"), body).proof())
        .isEqualTo(new Proof.Absent("header X-Hub-Signature-256 is missing: the delivery is not signed"));
    assertThat(parser.parse(Headers.of("X-GitHub-Event", "pull_request", "X-Hub-Signature", "sha1=abc"), body)
        .proof()).isInstanceOf(Proof.Absent.class);
  }

  @Test
  void missingOrMistypedFieldsAreNamed() {
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"number\": 42,", "")))
        .isInstanceOf(MalformedDeliveryException.class).hasMessage("payload field number is missing");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"number\": 42,", "\"number\": \"42\",")))
        .hasMessage("payload field number must be a whole number above 0");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"sha\": \"6dcb09b5b57875f334f61aebed695e2e4193db5e\"",
        "\"sha\": \"HEAD\"")))
        .hasMessage("payload field pull_request.head.sha is not a commit id");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"ref\": \"feature/quantity\"",
        "\"ref\": \"feature quantity\"")))
        .hasMessage("payload field pull_request.head.ref is not a valid ref name");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"action\": \"opened\"", "\"action\": 1")))
        .hasMessage("payload field action must be a string");
    assertThatThrownBy(() -> withAction("closed", "\"merged\": false", "\"merged\": \"yes\""))
        .hasMessage("payload field pull_request.merged must be true or false");
  }
}
