package io.gitfn.notify;

import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.answer;
import static io.gitfn.notify.Samples.json;
import static io.gitfn.notify.Samples.repository;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GitHubPullRequestsTest {

  private final GitHubPullRequests api = new GitHubPullRequests();
  private final ForgeRepository repository = repository("https://github.com/shop/functions.git");

  @Test
  void openPullRequestsAreListedOldestFirstFiftyAPageWithGitHubsHeaders() {
    ForgeRequest request = api.openPullRequests(repository, TOKEN, 2);

    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.uri()).isEqualTo(URI.create("https://api.github.com/repos/shop/functions/pulls"
        + "?state=open&sort=created&direction=asc&per_page=50&page=2"));
    assertThat(request.headers())
        .containsEntry("Authorization", "Bearer " + TOKEN)
        .containsEntry("Accept", "application/vnd.github+json")
        .containsEntry("X-GitHub-Api-Version", "2022-11-28");
    assertThat(request.body()).isEmpty();
  }

  @Test
  void aPullRequestIsReadWithItsHeadBaseLabelsAndWhetherItComesFromAFork() {
    List<JsonAnswer> items = api.items(answer("""
        [{"number": 7, "state": "open", "updated_at": "2026-03-01T10:00:00Z",
          "head": {"ref": "feature", "sha": "%s", "repo": {"full_name": "shop/functions"}},
          "base": {"ref": "main", "sha": "ffff", "repo": {"full_name": "shop/functions"}},
          "labels": [{"id": 1, "name": "preview"}, {"id": 2, "name": "docs"}]},
         {"number": 8, "updated_at": "2026-03-02T10:00:00Z",
          "head": {"ref": "main", "sha": "%s", "repo": {"full_name": "someone/functions"}},
          "base": {"ref": "main", "repo": {"full_name": "shop/functions"}}, "labels": []},
         {"number": 9, "updated_at": "2026-03-03T10:00:00Z",
          "head": {"ref": "gone", "sha": "%s", "repo": null},
          "base": {"ref": "main", "repo": {"full_name": "shop/functions"}}, "labels": []}]
        """.formatted(SHA, SHA, SHA)));

    assertThat(items).map(api::pullRequest).containsExactly(
        new OpenPullRequest(7, SHA, "feature", "main", List.of("preview", "docs"), false,
            Instant.parse("2026-03-01T10:00:00Z")),
        new OpenPullRequest(8, SHA, "main", "main", List.of(), true, Instant.parse("2026-03-02T10:00:00Z")),
        new OpenPullRequest(9, SHA, "gone", "main", List.of(), true, Instant.parse("2026-03-03T10:00:00Z")));
  }

  @Test
  void commentsAreThePullRequestsIssueCommentsAHundredAPage() {
    ForgeRequest request = api.comments(repository, TOKEN, 7, 1);

    assertThat(request.uri()).isEqualTo(
        URI.create("https://api.github.com/repos/shop/functions/issues/7/comments?per_page=100&page=1"));
    assertThat(api.items(answer("[{\"id\": 42, \"body\": \"hello\"}]")).stream().map(api::comment))
        .containsExactly(java.util.Optional.of(new ForgeComment("42", "hello", 0)));
  }

  @Test
  void aCommentIsCreatedOnTheIssueAndEditedByItsIdWithPatch() {
    ForgeRequest create = api.create(repository, TOKEN, 7, "text");
    ForgeRequest edit = api.edit(repository, TOKEN, 7, new ForgeComment("42", "old", 0), "new");

    assertThat(create.method()).isEqualTo("POST");
    assertThat(create.uri()).isEqualTo(URI.create("https://api.github.com/repos/shop/functions/issues/7/comments"));
    assertThat(json(create).path("body").asText()).isEqualTo("text");
    assertThat(edit.method()).isEqualTo("PATCH");
    assertThat(edit.uri()).isEqualTo(URI.create("https://api.github.com/repos/shop/functions/issues/comments/42"));
    assertThat(edit.headers()).containsEntry("Content-Type", "application/json")
        .containsEntry("Authorization", "Bearer " + TOKEN);
    assertThat(json(edit).path("body").asText()).isEqualTo("new");
  }

  @Test
  void aFieldOfTheWrongTypeNamesTheRequestAndTheField() {
    JsonAnswer item = api.items(answer("""
        [{"number": "seven", "head": {"ref": "f", "sha": "%s"}, "base": {"ref": "main"}}]""".formatted(SHA))).get(0);

    assertThatThrownBy(() -> api.pullRequest(item))
        .isInstanceOf(ForgeException.class)
        .hasMessage("GET https://forge.example/x answered: field [0].number is string, not a whole number");
  }
}
