package io.gitfn.notify;

import static io.gitfn.notify.Samples.SHA;
import static io.gitfn.notify.Samples.TOKEN;
import static io.gitfn.notify.Samples.answer;
import static io.gitfn.notify.Samples.json;
import static io.gitfn.notify.Samples.repository;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GiteaPullRequestsTest {

  private final GiteaPullRequests api = new GiteaPullRequests();
  private final ForgeRepository repository = repository("https://codeberg.org/shop/functions.git");

  @Test
  void openPullRequestsAreListedFiftyAPageWithATokenHeader() {
    ForgeRequest request = api.openPullRequests(repository, TOKEN, 3);

    assertThat(request.uri()).isEqualTo(
        URI.create("https://codeberg.org/api/v1/repos/shop/functions/pulls?state=open&limit=50&page=3"));
    assertThat(request.headers()).containsEntry("Authorization", "token " + TOKEN);
  }

  @Test
  void aPullRequestFromAnotherRepositoryIdIsFromAFork() {
    List<JsonAnswer> items = api.items(answer("""
        [{"number": 2, "state": "open", "updated_at": "2026-03-01T18:00:00+08:00",
          "head": {"ref": "feature", "sha": "%s", "repo_id": 5}, "base": {"ref": "main", "repo_id": 5},
          "labels": [{"id": 1, "name": "preview"}]},
         {"number": 3, "updated_at": "2026-03-01T10:00:00Z",
          "head": {"ref": "main", "sha": "%s", "repo_id": 6}, "base": {"ref": "main", "repo_id": 5},
          "labels": []}]
        """.formatted(SHA, SHA)));

    assertThat(items).map(api::pullRequest).containsExactly(
        new OpenPullRequest(2, SHA, "feature", "main", List.of("preview"), false,
            Instant.parse("2026-03-01T10:00:00Z")),
        new OpenPullRequest(3, SHA, "main", "main", List.of(), true, Instant.parse("2026-03-01T10:00:00Z")));
  }

  @Test
  void commentsAreIssueCommentsCreatedWithPostAndEditedWithPatch() {
    ForgeRequest list = api.comments(repository, TOKEN, 2, 1);
    ForgeRequest create = api.create(repository, TOKEN, 2, "text");
    ForgeRequest edit = api.edit(repository, TOKEN, 2, new ForgeComment("17", "old", 0), "new");

    assertThat(list.uri()).isEqualTo(
        URI.create("https://codeberg.org/api/v1/repos/shop/functions/issues/2/comments?limit=50&page=1"));
    assertThat(create.uri()).isEqualTo(URI.create("https://codeberg.org/api/v1/repos/shop/functions/issues/2/comments"));
    assertThat(json(create).path("body").asText()).isEqualTo("text");
    assertThat(edit.method()).isEqualTo("PATCH");
    assertThat(edit.uri()).isEqualTo(URI.create("https://codeberg.org/api/v1/repos/shop/functions/issues/comments/17"));
    assertThat(json(edit).path("body").asText()).isEqualTo("new");
    assertThat(api.items(answer("[{\"id\": 17, \"body\": \"old\"}]")).stream().map(api::comment))
        .containsExactly(Optional.of(new ForgeComment("17", "old", 0)));
  }
}
