package io.gitfn.trigger.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.MutableClock;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real HTTP deliveries, shaped as each forge sends them, to a receiver on loopback. */
class WebhookReceiverIT {

  private static final long LIMIT = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MutableClock clock = new MutableClock(Instant.parse("2024-05-14T10:00:00Z"));
  private final RecordingTargets targets = new RecordingTargets();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private WebhookServer server;

  @BeforeEach
  void start() throws Exception {
    WebhookSettings settings = new WebhookSettings(LIMIT, Duration.ofMinutes(10), Optional.empty());
    server = WebhookServer.start("127.0.0.1", 0, new WebhookReceiver(targets, settings, clock));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  record Answer(int status, Map<String, Object> body) {}

  private Answer post(String forge, byte[] body, String... headers) throws Exception {
    return send(HttpRequest.newBuilder(server.baseUri().resolve(forge))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)), headers);
  }

  @SuppressWarnings("unchecked")
  private Answer send(HttpRequest.Builder request, String... headers) throws Exception {
    request.header("Content-Type", "application/json").timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/json"));
    return new Answer(response.statusCode(), JSON.readValue(response.body(), Map.class));
  }

  // ---- GitHub

  @Test
  void aSignedGitHubPushTriggersTheSourcesTrackingItInAnyUrlForm() throws Exception {
    targets.track("fn/orders-ssh", "ssh://git@github.com/gitfn-demo/orders", "refs/heads/main", "s3cret")
        .track("fn/orders-scp", "git@github.com:GitFn-Demo/orders.git", "refs/heads/main", "s3cret")
        .track("fn/other-branch", "https://github.com/gitfn-demo/orders", "refs/heads/dev", "s3cret")
        .track("fn/other-secret", "https://github.com/gitfn-demo/orders", "refs/heads/main", "not-this-one");
    byte[] body = Samples.read("github-push.json");

    Answer answer = post("github", body, "X-GitHub-Event", "push",
        "X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958",
        "X-Hub-Signature-256", Samples.sha256Header("s3cret", body));

    assertThat(answer.status()).isEqualTo(202);
    assertThat(answer.body()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "forge", "github", "delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958", "event", "push",
        "repository", "github.com/gitfn-demo/orders", "ref", "refs/heads/main", "triggered", 2,
        "result", "triggered"));
    assertThat(targets.triggeredNames()).containsExactlyInAnyOrder("fn/orders-ssh", "fn/orders-scp");
  }

  @Test
  void unsignedAndWronglySignedGitHubPushesAre401AndTriggerNothing() throws Exception {
    targets.track("fn/orders", "https://github.com/gitfn-demo/orders.git", "refs/heads/main", "s3cret");
    byte[] body = Samples.read("github-push.json");

    Answer unsigned = post("github", body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "a");
    Answer wrong = post("github", body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "b",
        "X-Hub-Signature-256", Samples.sha256Header("guess", body));
    Answer sha1 = post("github", body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "c",
        "X-Hub-Signature-256", "sha1=" + Samples.hmacHex("s3cret", body));

    assertThat(unsigned.status()).isEqualTo(401);
    assertThat((String) unsigned.body().get("error")).contains("X-Hub-Signature-256").contains("not signed");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(wrong.body()).containsEntry("triggered", 0);
    assertThat(sha1.status()).isEqualTo(401);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aSignedGitHubPullRequestIsAnsweredAsOneAndTriggersNoPushWhileAThousandUnsignedAre401() throws Exception {
    targets.track("fn/orders", "https://github.com/gitfn-demo/orders.git", "refs/heads/main", "s3cret");
    byte[] body = Samples.read("github-pull-request.json");

    Answer signed = post("github", body, "X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "pr-1",
        "X-Hub-Signature-256", Samples.sha256Header("s3cret", body));
    List<Integer> unsigned = new ArrayList<>();
    for (int number = 1000; number < 2000; number++) {
      byte[] madeUp = Samples.edited("github-pull-request.json", "\"number\": 42", "\"number\": " + number);
      unsigned.add(post("github", madeUp, "X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "flood-" + number)
          .status());
    }

    assertThat(signed.status()).isEqualTo(200);
    assertThat(signed.body()).containsEntry("event", "pull_request").containsEntry("pullRequest", 42)
        .containsEntry("action", "opened").containsEntry("triggered", 0);
    assertThat((String) signed.body().get("result")).contains("previews are not enabled");
    assertThat(unsigned).as("1,000 unsigned pull-request deliveries for made-up numbers").hasSize(1000)
        .containsOnly(401);
    assertThat(targets.triggered()).as("no push fanout for pull requests").isEmpty();
  }

  @Test
  void aGitHubPingIs200AndTriggersNothing() throws Exception {
    targets.track("fn/orders", "https://github.com/gitfn-demo/orders.git", "refs/heads/main", "s3cret");
    Answer answer = post("github", Samples.read("github-ping.json"), "X-GitHub-Event", "ping",
        "X-GitHub-Delivery", "p1");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body()).containsEntry("event", "ping").containsEntry("triggered", 0);
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aRepeatedDeliveryIsIgnoredUntilTheWindowHasPassed() throws Exception {
    targets.track("fn/orders", "https://github.com/gitfn-demo/orders.git", "refs/heads/main", "s3cret");
    byte[] body = Samples.read("github-push.json");
    String[] headers = {"X-GitHub-Event", "push", "X-GitHub-Delivery", "again",
        "X-Hub-Signature-256", Samples.sha256Header("s3cret", body)};

    assertThat(post("github", body, headers).status()).isEqualTo(202);
    Answer repeat = post("github", body, headers);
    assertThat(repeat.status()).isEqualTo(200);
    assertThat(repeat.body()).containsEntry("result", "duplicate delivery; already handled")
        .containsEntry("triggered", 0);
    assertThat(targets.triggered()).hasSize(1);

    clock.advance(Duration.ofMinutes(11));
    assertThat(post("github", body, headers).status()).isEqualTo(202);
    assertThat(targets.triggered()).hasSize(2);
  }

  // ---- GitLab

  @Test
  void aGitLabPushWithTheRightTokenTriggersAndAWrongOneIs401() throws Exception {
    targets.track("fn/orders", "ssh://git@gitlab.example.com/platform/functions/orders.git", "refs/heads/main",
        "gl-token");
    byte[] body = Samples.read("gitlab-push.json");

    Answer wrong = post("gitlab", body, "X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", "e0",
        "X-Gitlab-Token", "gl-tokem");
    Answer missing = post("gitlab", body, "X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", "e1");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(missing.status()).isEqualTo(401);
    assertThat(targets.triggered()).isEmpty();

    Answer right = post("gitlab", body, "X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", "e2",
        "X-Gitlab-Token", "gl-token");
    assertThat(right.status()).isEqualTo(202);
    assertThat(right.body()).containsEntry("forge", "gitlab")
        .containsEntry("repository", "gitlab.example.com/platform/functions/orders").containsEntry("triggered", 1);
    assertThat(targets.triggered().get(0).event().after()).isEqualTo("da1560886d4f094c3e6c9ef40349f7d38b5d27d7");
  }

  @Test
  void aGitLabTagPushTriggersTheSourceTrackingTheTag() throws Exception {
    targets.track("fn/orders-release", "https://gitlab.example.com/platform/functions/orders", "refs/tags/v1.0.0",
        "gl-token");
    Answer answer = post("gitlab", Samples.read("gitlab-tag-push.json"), "X-Gitlab-Event", "Tag Push Hook",
        "X-Gitlab-Token", "gl-token");
    assertThat(answer.status()).isEqualTo(202);
    assertThat(answer.body()).containsEntry("ref", "refs/tags/v1.0.0").doesNotContainKey("delivery");
    assertThat(targets.triggeredNames()).containsExactly("fn/orders-release");
  }

  // ---- Gitea and Forgejo

  @Test
  void giteaAndForgejoPushesAreVerifiedByTheirBareHexSignature() throws Exception {
    targets.track("fn/orders", "http://gitea.example.com:3000/gitfn-demo/orders", "refs/heads/develop", "gt");
    byte[] body = Samples.read("gitea-push.json");

    Answer gitea = post("gitea", body, "X-Gitea-Event", "push", "X-Gitea-Delivery", "g1",
        "X-Gitea-Signature", Samples.hmacHex("gt", body));
    Answer forgejo = post("gitea", body, "X-Forgejo-Event", "push", "X-Forgejo-Delivery", "f1",
        "X-Forgejo-Signature", Samples.hmacHex("gt", body), "X-Gitea-Event", "push", "X-Gitea-Delivery", "f1",
        "X-Gitea-Signature", Samples.hmacHex("gt", body));
    Answer unsigned = post("gitea", body, "X-Gitea-Event", "push", "X-Gitea-Delivery", "g2");

    assertThat(gitea.status()).isEqualTo(202);
    assertThat(forgejo.status()).isEqualTo(202);
    assertThat(forgejo.body()).containsEntry("delivery", "f1");
    assertThat(unsigned.status()).isEqualTo(401);
    assertThat(targets.triggered()).hasSize(2);
    // The event carries the payload's address that matched the source.
    assertThat(targets.triggered().get(0).event().repository().matchKey())
        .isEqualTo("gitea.example.com/gitfn-demo/orders");
  }

  // ---- Bitbucket

  @Test
  void aBitbucketCloudPushTriggersPerRefAndItsPingIsAnswered() throws Exception {
    targets.track("fn/main", "git@bitbucket.org:gitfn-demo/orders.git", "refs/heads/main", "bb")
        .track("fn/release", "https://bitbucket.org/gitfn-demo/orders.git", "refs/tags/v1.2.0", "bb");
    byte[] body = Samples.read("bitbucket-cloud-push.json");

    Answer answer = post("bitbucket", body, "X-Event-Key", "repo:push",
        "X-Request-UUID", "afe2a3ba-2a02-4a8a-a1b9-0b3b1f0bb1b7", "X-Hook-UUID", "{hook}", "X-Attempt-Number", "1",
        "X-Hub-Signature", Samples.sha256Header("bb", body));

    assertThat(answer.status()).isEqualTo(202);
    assertThat(answer.body()).containsEntry("triggered", 2)
        .containsEntry("refs", java.util.List.of("refs/heads/main", "refs/tags/v1.2.0", "refs/heads/feature/old"));
    assertThat(targets.triggeredNames()).containsExactly("fn/main", "fn/release");
  }

  @Test
  void aBitbucketServerPushMatchesSourcesRegisteredByEitherCloneUrl() throws Exception {
    targets.track("fn/by-http", "https://bitbucket.example.com/scm/fn/orders.git", "refs/heads/main", "bb")
        .track("fn/by-ssh", "ssh://git@bitbucket.example.com:7999/fn/orders.git", "refs/heads/main", "bb");
    byte[] body = Samples.read("bitbucket-server-push.json");

    Answer answer = post("bitbucket", body, "X-Event-Key", "repo:refs_changed",
        "X-Request-Id", "d6a2a2ce-0d9c-4f3f-9b0a-5d3b8b0c1e2f", "X-Hub-Signature", Samples.sha256Header("bb", body));
    Answer ping = post("bitbucket", Samples.read("bitbucket-server-ping.json"), "X-Event-Key", "diagnostics:ping",
        "X-Request-Id", "ping-1");
    Answer wrong = post("bitbucket", body, "X-Event-Key", "repo:refs_changed", "X-Request-Id", "w",
        "X-Hub-Signature", Samples.sha256Header("nope", body));

    assertThat(answer.status()).isEqualTo(202);
    assertThat(answer.body()).containsEntry("triggered", 2);
    assertThat(targets.triggeredNames()).containsExactlyInAnyOrder("fn/by-http", "fn/by-ssh");
    assertThat(ping.status()).isEqualTo(200);
    assertThat(ping.body()).containsEntry("event", "diagnostics:ping").containsEntry("triggered", 0);
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(targets.triggered()).hasSize(2);
  }

  // ---- Generic

  @Test
  void aSignedGenericPushTriggersAndAnUnsignedOneIs401() throws Exception {
    targets.track("fn/orders", "https://git.example.com/platform/orders", "refs/heads/main", "gen");
    byte[] body = Samples.read("generic-push.json");

    Answer unsigned = post("generic", body);
    Answer signed = post("generic", body, "X-Signature", Samples.sha256Header("gen", body), "X-Delivery-Id", "ci-1");

    assertThat(unsigned.status()).isEqualTo(401);
    assertThat(signed.status()).isEqualTo(202);
    assertThat(signed.body()).containsEntry("forge", "generic").containsEntry("delivery", "ci-1")
        .containsEntry("repository", "git.example.com/platform/orders").containsEntry("triggered", 1);
    assertThat(targets.triggered()).singleElement().satisfies(t -> {
      assertThat(t.event().repository().fetchUrl()).isEqualTo("git@git.example.com:platform/orders.git");
      assertThat(t.event().after()).isEqualTo("3f786850e387550fdab836ed7e6dc881de23001b");
    });
  }

  @Test
  void theControllerWideSecretTriggersSourcesWithoutTheirOwn() throws Exception {
    server.close();
    server = WebhookServer.start("127.0.0.1", 0, new WebhookReceiver(targets,
        WebhookSettings.defaults().withGlobalSecret("cluster-wide"), clock));
    targets.track("fn/shared", "https://git.example.com/platform/orders", "refs/heads/main", null);
    byte[] body = Samples.read("generic-push.json");

    assertThat(post("generic", body, "X-Signature", Samples.sha256Header("guess", body)).status()).isEqualTo(401);
    assertThat(post("generic", body, "X-Signature", Samples.sha256Header("cluster-wide", body)).status())
        .isEqualTo(202);
    assertThat(targets.triggeredNames()).containsExactly("fn/shared");
  }

  // ---- HTTP edge

  @Test
  void aBodyOverTheLimitIs413WhetherItsLengthIsDeclaredOrNot() throws Exception {
    targets.track("fn/orders", "https://git.example.com/platform/orders", "refs/heads/main", "gen");
    byte[] big = new byte[(int) LIMIT + 1];
    java.util.Arrays.fill(big, (byte) ' ');

    Answer declared = post("generic", big, "X-Signature", Samples.sha256Header("gen", big));
    Answer chunked = send(HttpRequest.newBuilder(server.baseUri().resolve("generic"))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))),
        "X-Signature", Samples.sha256Header("gen", big));

    assertThat(declared.status()).isEqualTo(413);
    assertThat(chunked.status()).isEqualTo(413);
    assertThat((String) chunked.body().get("error")).contains(Long.toString(LIMIT));
    assertThat(targets.triggered()).isEmpty();
  }

  @Test
  void aSenderThatTricklesItsBodyIsAnswered408AtTheReadTimeoutAndFreesItsSlot() throws Exception {
    server.close();
    WebhookSettings settings = new WebhookSettings(LIMIT, Duration.ofMinutes(10), Optional.empty(), 1,
        Duration.ofSeconds(30), Duration.ofSeconds(1));
    server = WebhookServer.start("127.0.0.1", 0, new WebhookReceiver(targets, settings, clock));
    targets.track("fn/orders", "https://git.example.com/platform/orders", "refs/heads/main", "gen");

    String answer;
    try (Socket socket = new Socket("127.0.0.1", server.baseUri().getPort())) {
      socket.setSoTimeout(30_000);
      var out = socket.getOutputStream();
      out.write(("POST /hooks/generic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // One byte every 300 ms: never idle long enough for the connection's idle timeout, always too slow.
      var in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
          StandardCharsets.US_ASCII));
      CompletableFuture<String> statusLine = CompletableFuture.supplyAsync(
          () -> {
            try {
              return in.readLine();
            } catch (IOException e) {
              return "closed: " + e.getMessage();
            }
          });
      for (int i = 0; i < 100 && !statusLine.isDone(); i++) {
        out.write('{');
        out.flush();
        Thread.sleep(300);
      }
      answer = statusLine.get(30, TimeUnit.SECONDS);
    }
    byte[] body = Samples.read("generic-push.json");

    assertThat(answer).isEqualTo("HTTP/1.1 408 Request Timeout");
    assertThat(post("generic", body, "X-Signature", Samples.sha256Header("gen", body)).status())
        .as("the one slot is free again").isEqualTo(202);
  }

  @Test
  void malformedDeliveriesAre400AndNameTheField() throws Exception {
    Answer noRef = post("github", Samples.bytes("{\"repository\":{\"clone_url\":\"https://github.com/a/b.git\"}}"),
        "X-GitHub-Event", "push");
    Answer notJson = post("gitea", Samples.bytes("payload=%7B%7D"), "X-Gitea-Event", "push");
    Answer noEvent = post("bitbucket", Samples.read("bitbucket-cloud-push.json"));

    assertThat(noRef.status()).isEqualTo(400);
    assertThat(noRef.body()).containsEntry("error", "payload field ref is missing");
    assertThat(notJson.status()).isEqualTo(400);
    assertThat((String) notJson.body().get("error")).contains("application/json");
    assertThat(noEvent.status()).isEqualTo(400);
    assertThat(noEvent.body()).containsEntry("error", "header X-Event-Key is missing");
  }

  @Test
  void anUnknownForgeIs404AndAnotherMethodIs405() throws Exception {
    Answer unknown = post("sourcehut", Samples.bytes("{}"));
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(server.baseUri().resolve("github")).GET().build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(unknown.status()).isEqualTo(404);
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
  }

  @Test
  void aFailingSourceLookupIs500SoTheForgeRetries() throws Exception {
    server.close();
    WebhookTargets broken = repository -> {
      throw new IllegalStateException("informer not synced");
    };
    server = WebhookServer.start("127.0.0.1", 0, new WebhookReceiver(broken, WebhookSettings.defaults(), clock));
    byte[] body = Samples.read("generic-push.json");

    Answer answer = post("generic", body, "X-Signature", Samples.sha256Header("gen", body));

    assertThat(answer.status()).isEqualTo(500);
    assertThat((String) answer.body().get("error")).doesNotContain("informer");
  }

  @Test
  void theBaseUriEndsInHooks() {
    URI base = server.baseUri();
    assertThat(base.getScheme()).isEqualTo("http");
    assertThat(base.getHost()).isEqualTo("127.0.0.1");
    assertThat(base.getPort()).isPositive();
    assertThat(base.getPath()).isEqualTo("/hooks/");
  }
}
