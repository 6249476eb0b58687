package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.MutableClock;
import io.gitfn.source.RepositoryUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A pull request is verified and deduplicated as a push is, then handed to the previews seam; it triggers nothing. */
class PullRequestFanoutTest {

  private static final String REPO = "https://github.com/gitfn-demo/orders.git";
  private static final String MAIN = "refs/heads/main";

  record Handed(PullRequestChange change, List<RepositoryUrl> baseRepository, List<String> verifiedBy) {}

  private final MutableClock clock = new MutableClock(Instant.parse("2024-05-14T10:00:00Z"));
  private final RecordingTargets targets = new RecordingTargets();
  private final List<Handed> handed = new CopyOnWriteArrayList<>();
  private final PullRequestTargets previews = (change, baseRepository, verifiedBy) -> {
    handed.add(new Handed(change, baseRepository, verifiedBy.stream().map(WebhookTarget::name).toList()));
    return "preview planned";
  };
  private final byte[] body = Samples.read("github-pull-request.json");

  private PushFanout fanout(PullRequestTargets pullRequests, String globalSecret) {
    return new PushFanout(targets, pullRequests, new SignatureVerifier(), Optional.ofNullable(globalSecret),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100));
  }

  private Delivery pullRequest(byte[] payload, String id, String signedWith) throws Exception {
    Headers headers = signedWith == null
        ? Headers.of("X-GitHub-Event", "pull_request", "X-GitHub-Delivery", id)
        : Headers.of("X-GitHub-Event", "pull_request", "X-GitHub-Delivery", id,
            "X-Hub-Signature-256", Samples.sha256Header(signedWith, payload));
    return new GitHubParser().parse(headers, payload);
  }

  @Test
  void aVerifiedPullRequestIsHandedOnWithTheSourcesItVerifiedForAndTriggersNoCheck() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a").track("team-b/orders", REPO, MAIN, "secret-b")
        .track("team-a/orders-dev", REPO, "refs/heads/dev", "secret-a");

    Reply reply = fanout(previews, null).deliver(pullRequest(body, "d1", "secret-a"), body);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).containsEntry("forge", "github").containsEntry("delivery", "d1")
        .containsEntry("event", "pull_request").containsEntry("repository", "github.com/gitfn-demo/orders")
        .containsEntry("pullRequest", 42L).containsEntry("action", "opened").containsEntry("triggered", 0)
        .containsEntry("result", "preview planned").doesNotContainKey("ref");
    assertThat(handed).singleElement().satisfies(h -> {
      assertThat(h.change().number()).isEqualTo(42);
      assertThat(h.baseRepository()).extracting(RepositoryUrl::matchKey).containsOnly("github.com/gitfn-demo/orders");
      // team-b's owners did not sign this delivery, so no preview may be made for their source.
      assertThat(h.verifiedBy()).containsExactly("team-a/orders", "team-a/orders-dev");
    });
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void withoutPreviewsTheAnswerSaysTheyAreNotEnabled() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");

    Reply reply = new PushFanout(targets, new SignatureVerifier(), Optional.empty(),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100)).deliver(pullRequest(body, "d1", "secret-a"), body);

    assertThat(reply.status()).isEqualTo(200);
    assertThat((String) reply.body().get("result")).contains("pull-request event").contains("previews are not enabled");
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void anUnsignedOrWronglySignedPullRequestIs401AndHandedNowhere() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    PushFanout fanout = fanout(previews, "global");

    Reply unsigned = fanout.deliver(pullRequest(body, "d1", null), body);
    Reply wrong = fanout.deliver(pullRequest(body, "d2", "guess"), body);

    assertThat(unsigned.status()).isEqualTo(401);
    assertThat((String) unsigned.body().get("error")).contains("not signed");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(handed).isEmpty();
  }

  @Test
  void anUntrackedRepositoryIs401UnlessTheControllerWideSecretVerifiesIt() throws Exception {
    assertThat(fanout(previews, null).deliver(pullRequest(body, "d1", "global"), body).status()).isEqualTo(401);
    assertThat(handed).isEmpty();

    Reply reply = fanout(previews, "global").deliver(pullRequest(body, "d2", "global"), body);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(handed).singleElement().satisfies(h -> assertThat(h.verifiedBy()).isEmpty());
  }

  @Test
  void aRepeatedDeliveryIsHandedOnOnce() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    PushFanout fanout = fanout(previews, null);
    Delivery delivery = pullRequest(body, "d1", "secret-a");

    fanout.deliver(delivery, body);
    Reply again = fanout.deliver(delivery, body);

    assertThat(again.status()).isEqualTo(200);
    assertThat(again.body()).containsEntry("result", "duplicate delivery; already handled");
    assertThat(handed).hasSize(1);
  }

  @Test
  void anActionGitfnDoesNotActOnIsAnswered200AndHandedNowhere() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    byte[] edited = Samples.edited("github-pull-request.json", "\"action\": \"opened\"", "\"action\": \"edited\"");

    Reply reply = fanout(previews, null).deliver(pullRequest(edited, "d1", "secret-a"), edited);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).containsEntry("action", "other")
        .containsEntry("result", "pull-request action is not one gitfn acts on; nothing to do");
    assertThat(handed).isEmpty();
  }
}
