package io.gitfn.notify;

import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TOKEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gitfn.notify.SendResult.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Listing open pull requests against a fake Gitea on 127.0.0.1: paging, and answers that must not be believed. */
@Timeout(30)
class OpenPullRequestsTest {

  private FakeForge forge;
  private final OpenPullRequests pullRequests =
      new OpenPullRequests(new CommitStatusSender(Duration.ofSeconds(2), Duration.ofSeconds(2)));

  @BeforeEach
  void startForge() throws IOException {
    forge = FakeForge.start();
  }

  @AfterEach
  void stopForge() {
    forge.close();
  }

  private ForgeRepository repository() {
    return Samples.repository("https://git.example/shop/functions.git", Forge.GITEA, forge.base() + "/api/v1");
  }

  private static String pullRequest(long number) {
    return """
        {"number": %d, "updated_at": "2026-03-01T10:00:00Z", "labels": [],
         "head": {"ref": "b%d", "sha": "%s", "repo_id": 1}, "base": {"ref": "main", "repo_id": 1}}"""
        .formatted(number, number, SHA);
  }

  private static String page(long from, long to) {
    StringBuilder json = new StringBuilder("[");
    for (long n = from; n <= to; n++) {
      json.append(n == from ? "" : ",").append(pullRequest(n));
    }
    return json.append("]").toString();
  }

  @Test
  void everyPageIsReadWhileTheLinkHeaderNamesANextOneAndEachPullRequestIsListedOnce() {
    forge.answering(exchange -> {
      String query = exchange.getRequestURI().getRawQuery();
      if (query.endsWith("page=1")) {
        // Gitea's own next link; gitfn asks for page 2 itself.
        exchange.getResponseHeaders().add("Link", "<" + forge.base() + "/api/v1/repos/shop/functions/pulls?page=2>; "
            + "rel=\"next\", <" + forge.base() + "/api/v1/repos/shop/functions/pulls?page=2>; rel=\"last\"");
        FakeForge.reply(exchange, 200, page(1, 50));
      } else {
        // A pull request opened meanwhile pushed number 50 onto this page too.
        FakeForge.reply(exchange, 200, page(50, 60));
      }
    });

    var listed = pullRequests.list(repository(), TOKEN);

    assertThat(listed).hasSize(60);
    assertThat(listed).extracting(OpenPullRequest::number).doesNotHaveDuplicates();
    assertThat(forge.seen()).extracting(seen -> seen.rawPath()).containsOnly("/api/v1/repos/shop/functions/pulls");
    assertThat(forge.seen()).allSatisfy(seen ->
        assertThat(seen.headers().getFirst("Authorization")).isEqualTo("token " + TOKEN));
  }

  @Test
  void aForgeThatAlwaysHasAnotherPageIsReadTwentyTimesAndThenRefused() {
    forge.answering(exchange -> {
      // A next link that points elsewhere: gitfn never goes there, it only learns that a page follows.
      exchange.getResponseHeaders().add("Link", "<http://elsewhere.example/steal>; rel=\"next\"");
      FakeForge.reply(exchange, 200, "[]");
    });

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOf(ForgeException.class)
        .hasMessageContaining("page=20 answered")
        .hasMessageContaining("has more than 20 pages of open pull requests, more than gitfn reads");
    assertThat(forge.seen()).hasSize(OpenPullRequests.MAX_PAGES);
  }

  @Test
  void moreThanAThousandPullRequestsAreRefusedRatherThanListedInPart() {
    forge.answering(exchange -> {
      int page = Integer.parseInt(exchange.getRequestURI().getRawQuery().replaceAll(".*page=", ""));
      exchange.getResponseHeaders().add("Link", "<x>; rel=\"next\"");
      FakeForge.reply(exchange, 200, page(page * 100L, page * 100L + 99));
    });

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOf(ForgeException.class)
        .hasMessageContaining("more than 1000 open pull requests");
  }

  @Test
  void anAnswerLargerThanTheCapIsRefusedAndNotHeld() {
    forge.answering(exchange -> {
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) ' ');
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write('[');
        while (true) {
          out.write(chunk);
        }
      } catch (IOException e) {
        // the client hung up
      }
    });

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOfSatisfying(ForgeException.class,
            e -> assertThat(e.result().outcome()).isEqualTo(Outcome.REJECTED))
        .hasMessageContaining("the answer is larger than 4 MiB, which gitfn does not read");
  }

  @Test
  void anAnswerThatIsNotAListNamesWhatItIs() {
    forge.answering(exchange -> FakeForge.reply(exchange, 200, "{\"message\": \"not a list\"}"));

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOf(ForgeException.class)
        .hasMessageEndingWith("answered: the answer is object, not an array");
  }

  @Test
  void anAnswerThatIsNotJsonSaysSo() {
    forge.answering(exchange -> FakeForge.reply(exchange, 200, "<html>login</html>"));

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOf(ForgeException.class)
        .hasMessageContaining("the answer is not JSON");
  }

  @Test
  void aRefusedTokenIsRejectedWithTheRequestNamedAndTheTokenMasked() {
    forge.answering(exchange -> FakeForge.reply(exchange, 401, "bad token " + TOKEN));

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOfSatisfying(ForgeException.class, e -> {
          assertThat(e.result().outcome()).isEqualTo(Outcome.REJECTED);
          assertThat(e.result().statusCode()).isEqualTo(401);
        })
        .hasMessageStartingWith("GET " + forge.base() + "/api/v1/repos/shop/functions/pulls?state=open")
        .hasMessageEndingWith("REJECTED 401: bad ***") // the whole header value, scheme word and all, is masked
        .hasMessageNotContaining(TOKEN);
  }

  @Test
  void aRateLimitedListIsRetriedAfterTheTimeTheForgeNames() {
    forge.answering(exchange -> {
      exchange.getResponseHeaders().add("Retry-After", "60");
      FakeForge.reply(exchange, 429, "slow down");
    });

    assertThatThrownBy(() -> pullRequests.list(repository(), TOKEN))
        .isInstanceOfSatisfying(ForgeException.class, e -> {
          assertThat(e.result().outcome()).isEqualTo(Outcome.RETRY);
          assertThat(e.result().retryAfter()).contains(Duration.ofSeconds(60));
        });
  }
}
