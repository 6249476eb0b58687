package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A hostile pull-request payload is refused with the field it got wrong, or read to a bounded result; it never
 * makes the receiver keep more than the bounds of {@link PullRequestChange}.
 */
class PullRequestBoundsTest {

  private static final String SAMPLE = "github-pull-request.json";
  private static final String LABELS_START = "\"labels\": [";

  private final GitHubParser parser = new GitHubParser();

  private PullRequestChange parse(byte[] body) throws MalformedDeliveryException {
    return parser.parse(Headers.of("X-GitHub-Event", "pull_request"), body).pullRequest();
  }

  private static byte[] withLabels(String labels) {
    return Samples.edited(SAMPLE, LABELS_START, LABELS_START + labels);
  }

  private static String labels(int count) {
    StringBuilder labels = new StringBuilder();
    for (int i = 0; i < count; i++) {
      labels.append("{\"id\": ").append(i).append(", \"name\": \"l").append(i).append("\"},");
    }
    return labels.toString();
  }

  @Test
  void aHugeLabelListIsCutToTheFirstHundredAsItIsRead() throws Exception {
    // A label past the hundredth that would be refused shows that what follows the cut is never read.
    String tooLong = "{\"name\": \"" + "x".repeat(PullRequestChange.MAX_LABEL + 1) + "\"},";
    PullRequestChange change = parse(withLabels(labels(PullRequestChange.MAX_LABELS) + tooLong + labels(20_000)));

    assertThat(change.labels()).hasSize(PullRequestChange.MAX_LABELS).startsWith("l0", "l1").endsWith("l99");
  }

  @Test
  void aLabelNameOverTheLimitIsRefusedByItsField() {
    String tooLong = "{\"name\": \"" + "x".repeat(PullRequestChange.MAX_LABEL + 1) + "\"},";
    assertThatThrownBy(() -> parse(withLabels(labels(3) + tooLong)))
        .isInstanceOf(MalformedDeliveryException.class)
        .hasMessage("payload field pull_request.labels[3].name is not a label name of at most 255 characters");
    assertThatThrownBy(() -> parse(withLabels("{\"name\": \"a\\nb\"},")))
        .hasMessage("payload field pull_request.labels[0].name is not a label name of at most 255 characters");
  }

  @Test
  void labelsOfTheWrongShapeAreRefusedOrLeftOut() throws Exception {
    assertThatThrownBy(() -> parse(withLabels("{\"name\": 5},")))
        .hasMessage("payload field pull_request.labels[0].name must be a string");
    // A name that is no text, and strings and lists where label objects belong, are not read at all.
    assertThat(parse(withLabels("{\"name\": {\"deep\": [1, 2]}},")).labels())
        .containsExactly("preview", "area/orders");
    assertThat(parse(withLabels("\"preview\", [\"preview\"],")).labels()).containsExactly("preview", "area/orders");
    assertThat(parse(Samples.edited(SAMPLE, LABELS_START, "\"labels\": {\"preview\": true}, \"x\": [")).labels())
        .isEmpty();
  }

  @Test
  void aLabelGivenTwiceIsKeptOnce() throws Exception {
    assertThat(parse(withLabels("{\"name\": \"preview\"},")).labels()).containsExactly("preview", "area/orders");
  }

  @Test
  void aLongTitleOrAuthorIsCutAndCleanedNotRefused() throws Exception {
    String title = "orders\u0007: \r\n" + "y".repeat(900_000);
    PullRequestChange change = parse(Samples.edited(SAMPLE,
        "\"title\": \"orders: validate the quantity\"", "\"title\": \"" + title.replace("\r", "\\r").replace("\n", "\\n")
            .replace("\u0007", "\\u0007") + "\"",
        "\"login\": \"octocat\", \"id\": 583231", "\"login\": \"" + "o".repeat(1000) + "\", \"id\": 583231"));

    assertThat(change.title()).hasSize(PullRequestChange.MAX_TITLE).startsWith("orders :   yyy").endsWith("y…");
    assertThat(change.author()).hasSize(PullRequestChange.MAX_AUTHOR).endsWith("o…");
  }

  @Test
  void aBranchNameOverTheLimitOrNotABranchIsRefused() {
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"ref\": \"feature/quantity\"",
        "\"ref\": \"" + "b".repeat(PullRequestChange.MAX_BRANCH + 1) + "\"")))
        .hasMessage("payload field pull_request.head.ref is not a branch name of 1 to 255 characters");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"ref\": \"main\"", "\"ref\": \"refs/tags/v1\"")))
        .hasMessage("payload field pull_request.base.ref is not a branch: refs/tags/v1");
    assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"ref\": \"main\"", "\"ref\": [\"main\"]")))
        .hasMessage("payload field pull_request.base.ref is missing");
  }

  @Test
  void aNumberThatIsNotAPositiveWholeNumberIsRefused() {
    for (String number : new String[] {"0", "-3", "1.5", "1e30", "99999999999999999999", "true", "{}"}) {
      assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"number\": 42,", "\"number\": " + number + ",")))
          .as(number).isInstanceOf(MalformedDeliveryException.class).hasMessageStartingWith("payload field number");
    }
  }

  @Test
  void aCommitThatIsNotHexOrTooLongIsRefused() {
    for (String sha : new String[] {"abc", "6DCB09B5B57875F3", "a".repeat(65), "6dcb09b5 57875f"}) {
      assertThatThrownBy(() -> parse(Samples.edited(SAMPLE, "\"sha\": \"6dcb09b5b57875f334f61aebed695e2e4193db5e\"",
          "\"sha\": \"" + sha + "\"")))
          .as(sha).hasMessage("payload field pull_request.head.sha is not a commit id");
    }
  }

  @Test
  void aPayloadWithoutThePullRequestNamesWhatIsMissing() {
    assertThatThrownBy(() -> parse(Samples.bytes("{\"action\": \"opened\", \"number\": 1}")))
        .hasMessage("payload field pull_request.head.sha is missing");
    assertThatThrownBy(() -> parse(Samples.bytes("[]"))).hasMessageStartingWith("the body is not a JSON object");
  }

  @Test
  void deepNestingIsRefusedAsForAPush() {
    String deep = "{\"pull_request\":" + "{\"a\":".repeat(1000) + "1" + "}".repeat(1001);
    assertThatThrownBy(() -> parse(Samples.bytes(deep))).hasMessageStartingWith("the body is not JSON");
  }
}
