package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PushFanoutTest {

  private static final String REPO = "https://github.com/gitfn-demo/orders.git";
  private static final String MAIN = "refs/heads/main";

  private final MutableClock clock = new MutableClock(Instant.parse("2024-05-14T10:00:00Z"));
  private final RecordingTargets targets = new RecordingTargets();
  private final byte[] body = Samples.read("github-push.json");

  private PushFanout fanout(String globalSecret) {
    return new PushFanout(targets, new SignatureVerifier(), Optional.ofNullable(globalSecret),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100));
  }

  private Delivery githubPush(String id, String signedWith) throws Exception {
    Headers headers = signedWith == null
        ? Headers.of("X-GitHub-Event", "push", "X-GitHub-Delivery", id)
        : Headers.of("X-GitHub-Event", "push", "X-GitHub-Delivery", id,
            "X-Hub-Signature-256", Samples.sha256Header(signedWith, body));
    return new GitHubParser().parse(headers, body);
  }

  @Test
  void onlyTheSourcesWhoseSecretVerifiesAreTriggered() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a")
        .track("team-b/orders", "git@github.com:gitfn-demo/orders.git", MAIN, "secret-b")
        .track("team-a/orders-dev", REPO, "refs/heads/dev", "secret-a");

    Reply reply = fanout(null).deliver(githubPush("d1", "secret-a"), body);

    assertThat(reply.status()).isEqualTo(202);
    assertThat(reply.body()).containsEntry("triggered", 1).containsEntry("repository", "github.com/gitfn-demo/orders")
        .containsEntry("ref", MAIN).containsEntry("delivery", "d1").containsEntry("forge", "github");
    assertThat(targets.triggeredNames()).containsExactly("team-a/orders");
    PushEvent event = targets.triggered().get(0).event();
    assertThat(event.forge()).isEqualTo(Forge.GITHUB);
    assertThat(event.deliveryId()).isEqualTo("d1");
    assertThat(event.event()).isEqualTo("push");
    assertThat(event.ref()).isEqualTo(MAIN);
    assertThat(event.after()).isEqualTo("0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c");
  }

  @Test
  void aWrongSignatureTriggersNothingAnd401s() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    Reply reply = fanout(null).deliver(githubPush("d1", "guess"), body);
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.body()).containsEntry("triggered", 0);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void anUnsignedDeliveryTriggersNothingAnd401s() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    Reply reply = fanout(null).deliver(githubPush("d1", null), body);
    assertThat(reply.status()).isEqualTo(401);
    assertThat((String) reply.body().get("error")).contains("not signed");
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void theGlobalSecretCoversSourcesWithoutOneOnly() throws Exception {
    targets.track("shared/orders", REPO, MAIN, null).track("team-a/orders", REPO, MAIN, "secret-a");
    Reply reply = fanout("global").deliver(githubPush("d1", "global"), body);
    assertThat(reply.status()).isEqualTo(202);
    assertThat(targets.triggeredNames()).containsExactly("shared/orders");
  }

  @Test
  void aSourceWithoutASecretIsNeverTriggeredWithoutAGlobalSecret() throws Exception {
    targets.track("shared/orders", REPO, MAIN, null);
    assertThat(fanout(null).deliver(githubPush("d1", "anything"), body).status()).isEqualTo(401);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void anUnsignedPushIs401EvenWhenNobodyTracksIt() throws Exception {
    Reply reply = fanout(null).deliver(githubPush("d1", null), body);
    assertThat(reply.status()).isEqualTo(401);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aPushNobodyTracksGetsTheAnswerOfABadSignatureForATrackedOne() throws Exception {
    Reply untracked = fanout(null).deliver(githubPush("d1", "whatever"), body);
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    Reply tracked = fanout(null).deliver(githubPush("d1", "whatever"), body);

    assertThat(untracked.status()).isEqualTo(401);
    assertThat(untracked.body()).isEqualTo(tracked.body());
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aPushToAnUntrackedRefIsAnsweredWithZeroOnceASourceSecretVerifiesIt() throws Exception {
    targets.track("team-a/orders-dev", REPO, "refs/heads/dev", "secret-a");
    Reply reply = fanout(null).deliver(githubPush("d1", "secret-a"), body);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).containsEntry("triggered", 0);
  }

  @Test
  void eachDistinctSecretIsTriedOnceAndOnlySoManyAreTried() throws Exception {
    for (int i = 0; i < PushFanout.MAX_SECRETS * 4; i++) {
      targets.track("team-" + i + "/orders", REPO, MAIN, "secret-" + (i % (PushFanout.MAX_SECRETS + 8)));
    }
    CountingVerifier verifier = new CountingVerifier();
    Reply reply = new PushFanout(targets, verifier, Optional.empty(),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100)).deliver(githubPush("d1", "guess"), body);

    assertThat(reply.status()).isEqualTo(401);
    assertThat(verifier.calls).isEqualTo(PushFanout.MAX_SECRETS);
  }

  @Test
  void withAGlobalSecretAnUnverifiedPushNobodyTracksIs401() throws Exception {
    assertThat(fanout("global").deliver(githubPush("d1", "guess"), body).status()).isEqualTo(401);
    assertThat(fanout("global").deliver(githubPush("d2", "global"), body).status()).isEqualTo(200);
  }

  @Test
  void aRepeatedDeliveryIsAnsweredAndIgnoredWithinTheWindow() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    PushFanout fanout = fanout(null);
    assertThat(fanout.deliver(githubPush("d1", "secret-a"), body).status()).isEqualTo(202);
    clock.advance(Duration.ofMinutes(5));
    Reply again = fanout.deliver(githubPush("d1", "secret-a"), body);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.body()).containsEntry("triggered", 0).containsEntry("result", "duplicate delivery; already handled");
    assertThat(targets.triggered()).hasSize(1);

    clock.advance(Duration.ofMinutes(6));
    assertThat(fanout.deliver(githubPush("d1", "secret-a"), body).status()).isEqualTo(202);
    assertThat(targets.triggered()).hasSize(2);
  }

  @Test
  void aForgedCopyCannotUseUpARealDeliveryId() throws Exception {
    targets.track("team-a/orders", REPO, MAIN, "secret-a");
    PushFanout fanout = fanout(null);
    assertThat(fanout.deliver(githubPush("d1", "guess"), body).status()).isEqualTo(401);
    assertThat(fanout.deliver(githubPush("d1", "secret-a"), body).status()).isEqualTo(202);
  }

  @Test
  void aSourceIsTriggeredOnceEvenWhenSeveralPushedRefsMatchIt() throws Exception {
    RecordingTargets many = new RecordingTargets()
        .track("main", "https://bitbucket.org/gitfn-demo/orders", MAIN, "s")
        .track("tag", "git@bitbucket.org:gitfn-demo/orders.git", "refs/tags/v1.2.0", "s")
        .track("gone", "https://bitbucket.org/gitfn-demo/orders.git", "refs/heads/feature/old", "s");
    byte[] cloud = Samples.read("bitbucket-cloud-push.json");
    Delivery d = new BitbucketParser().parse(Headers.of("X-Event-Key", "repo:push", "X-Request-UUID", "u1",
        "X-Hub-Signature", Samples.sha256Header("s", cloud)), cloud);

    Reply reply = new PushFanout(many, new SignatureVerifier(), Optional.empty(),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100)).deliver(d, cloud);

    assertThat(reply.status()).isEqualTo(202);
    assertThat(reply.body()).containsEntry("triggered", 3);
    assertThat(many.triggered()).extracting(t -> t.name() + " " + t.event().ref() + " " + t.event().after())
        .containsExactly(
            "main refs/heads/main 709d658dc5b6d6afcd46049c2f332ee3f515a67d",
            "tag refs/tags/v1.2.0 709d658dc5b6d6afcd46049c2f332ee3f515a67d",
            "gone refs/heads/feature/old null");
  }

  @Test
  void pingsAndOtherEventsTriggerNothing() {
    targets.track("team-a/orders", REPO, MAIN, null);
    PushFanout fanout = fanout("global");
    assertThat(fanout.deliver(Delivery.ping(Forge.GITHUB, "p", "ping"), body).status()).isEqualTo(200);
    assertThat(fanout.deliver(Delivery.other(Forge.GITHUB, "o", "issues"), body).status()).isEqualTo(200);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aFailingTargetDoesNotStopTheOthers() throws Exception {
    WebhookTargets failing = repository -> java.util.List.of(
        new WebhookTarget() {
          public String name() {
            return "broken";
          }

          public Optional<String> secret() {
            return Optional.of("secret-a");
          }

          public boolean moves(String ref) {
            return true;
          }

          public void trigger(PushEvent event) {
            throw new IllegalStateException("queue full");
          }
        });
    RecordingTargets also = targets.track("team-a/orders", REPO, MAIN, "secret-a");
    WebhookTargets both = repository -> {
      var list = new java.util.ArrayList<>(failing.tracking(repository));
      list.addAll(also.tracking(repository));
      return list;
    };
    Reply reply = new PushFanout(both, new SignatureVerifier(), Optional.empty(),
        new RecentDeliveries(clock, Duration.ofMinutes(10), 100)).deliver(githubPush("d1", "secret-a"), body);
    assertThat(reply.body()).containsEntry("triggered", 1);
    assertThat(targets.triggeredNames()).containsExactly("team-a/orders");
  }

  /** Counts the HMACs computed. */
  private static final class CountingVerifier extends SignatureVerifier {
    int calls;

    @Override
    boolean verifies(Proof proof, byte[] body, String secret) {
      calls++;
      return super.verifies(proof, body, secret);
    }
  }
}
