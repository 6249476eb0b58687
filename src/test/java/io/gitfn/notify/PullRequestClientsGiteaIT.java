package io.gitfn.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.notify.UpsertedComment.Change;
import io.gitfn.testbed.GiteaServer;
import io.gitfn.testbed.TestBedBinaries;
import io.gitfn.testbed.git.GitClient;
import io.gitfn.testbed.git.WorkingCopy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pull-request clients against a real Gitea: a pull request opened through Gitea's API is listed with its head,
 * and two upserts leave one comment, saying what the second said. The token has only the rights the docs name for
 * Gitea: read:repository and write:issue.
 */
class PullRequestClientsGiteaIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static GiteaServer gitea;
  private final HttpClient http = HttpClient.newHttpClient();
  private final CommitStatusSender sender = new CommitStatusSender();

  @BeforeAll
  static void start() throws Exception {
    gitea = GiteaServer.start(Files.createTempDirectory(
        Files.createDirectories(TestBedBinaries.projectDir().resolve("target/testbed")), "gitea-"));
  }

  @AfterAll
  static void stop() {
    gitea.close();
  }

  @Test
  void aPullRequestIsListedWithItsHeadAndTwoUpsertsLeaveOneCommentWithTheSecondBody(@TempDir Path home)
      throws Exception {
    String cloneUrl = gitea.createRepository("previews");
    WorkingCopy copy = GitClient.create(home, gitea.admin(), null).clone(cloneUrl);
    copy.write("README.md", "# functions\n").commit("first");
    copy.push("HEAD:refs/heads/main");
    String head = copy.write("hello.js", "module.exports = () => 'hi';\n").commit("a Function");
    copy.push("HEAD:refs/heads/preview");
    long number = admin("POST", "/api/v1/repos/gitfn/previews/pulls",
        Map.of("head", "preview", "base", "main", "title", "Add hello")).get("number").asLong();
    String token = admin("POST", "/api/v1/users/gitfn/tokens",
        Map.of("name", "previews", "scopes", List.of("read:repository", "write:issue"))).get("sha1").asText();
    ForgeRepository repository = ForgeRepository.of(cloneUrl, Optional.of(Forge.GITEA), Optional.empty());

    List<OpenPullRequest> open = new OpenPullRequests(sender).list(repository, token);

    assertThat(open).singleElement().satisfies(pullRequest -> {
      assertThat(pullRequest.number()).isEqualTo(number);
      assertThat(pullRequest.headSha()).isEqualTo(head);
      assertThat(pullRequest.headRef()).isEqualTo("preview");
      assertThat(pullRequest.baseRef()).isEqualTo("main");
      assertThat(pullRequest.fromFork()).isFalse();
    });

    PullRequestComments comments = new PullRequestComments(sender);
    CommentMarker marker = CommentMarker.preview("shop", "functions");
    UpsertedComment first = comments.upsert(repository, token, number, marker, "Preview: starting");
    UpsertedComment second = comments.upsert(repository, token, number, marker, "Preview: http://pr-1.example");

    assertThat(first.change()).isEqualTo(Change.CREATED);
    assertThat(second).isEqualTo(new UpsertedComment(first.id(), Change.EDITED));
    List<String> bodies = new ArrayList<>();
    admin("GET", "/api/v1/repos/gitfn/previews/issues/" + number + "/comments", null)
        .forEach(comment -> bodies.add(comment.get("body").asText()));
    assertThat(bodies).containsExactly("<!-- gitfn-preview:shop/functions -->\n\nPreview: http://pr-1.example");
  }

  /** Gitea's API as its admin, for what the test sets up and reads back. */
  private JsonNode admin(String method, String path, Object body) throws Exception {
    String basic = Base64.getEncoder().encodeToString((gitea.admin().username() + ":" + gitea.admin().password())
        .getBytes(StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(URI.create(gitea.baseUrl().toString().replaceAll("/$", "") + path))
        .header("Authorization", "Basic " + basic)
        .header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
        .timeout(Duration.ofSeconds(10))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("%s %s: %s", method, path, response.body()).isBetween(200, 299);
    return JSON.readTree(response.body());
  }
}
