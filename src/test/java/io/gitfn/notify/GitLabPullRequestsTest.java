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

class GitLabPullRequestsTest {

  private final GitLabPullRequests api = new GitLabPullRequests();
  private final ForgeRepository repository = repository("https://gitlab.com/shop/team/functions.git");

  @Test
  void openMergeRequestsAreListedForTheProjectNamedByItsEncodedPath() {
    ForgeRequest request = api.openPullRequests(repository, TOKEN, 1);

    assertThat(request.uri()).isEqualTo(URI.create("https://gitlab.com/api/v4/projects/shop%2Fteam%2Ffunctions"
        + "/merge_requests?state=opened&order_by=created_at&sort=asc&per_page=100&page=1"));
    assertThat(request.headers()).containsEntry("PRIVATE-TOKEN", TOKEN).doesNotContainKey("Authorization");
  }

  @Test
  void aMergeRequestIsReadByItsIidWithStringLabelsAndItsSourceProject() {
    List<JsonAnswer> items = api.items(answer("""
        [{"id": 9001, "iid": 3, "sha": "%s", "source_branch": "feature", "target_branch": "main",
          "source_project_id": 11, "target_project_id": 11, "labels": ["preview"],
          "updated_at": "2026-03-01T10:00:00.123Z"},
         {"id": 9002, "iid": 4, "sha": "%s", "source_branch": "main", "target_branch": "main",
          "source_project_id": 12, "target_project_id": 11, "labels": [],
          "updated_at": "2026-03-01T11:00:00.000+01:00"}]
        """.formatted(SHA, SHA)));

    assertThat(items).map(api::pullRequest).containsExactly(
        new OpenPullRequest(3, SHA, "feature", "main", List.of("preview"), false,
            Instant.parse("2026-03-01T10:00:00.123Z")),
        new OpenPullRequest(4, SHA, "main", "main", List.of(), true, Instant.parse("2026-03-01T10:00:00Z")));
  }

  @Test
  void notesAreReadOldestFirstAndGitLabsSystemNotesAreSkipped() {
    ForgeRequest request = api.comments(repository, TOKEN, 3, 2);

    assertThat(request.uri()).isEqualTo(URI.create("https://gitlab.com/api/v4/projects/shop%2Fteam%2Ffunctions"
        + "/merge_requests/3/notes?order_by=created_at&sort=asc&per_page=100&page=2"));
    assertThat(api.items(answer("""
        [{"id": 1, "body": "added 1 commit", "system": true}, {"id": 2, "body": "hi", "system": false}]"""))
        .stream().map(api::comment))
        .containsExactly(Optional.empty(), Optional.of(new ForgeComment("2", "hi", 0)));
  }

  @Test
  void aNoteIsCreatedOnTheMergeRequestAndEditedWithPut() {
    ForgeRequest create = api.create(repository, TOKEN, 3, "text");
    ForgeRequest edit = api.edit(repository, TOKEN, 3, new ForgeComment("2", "old", 0), "new");

    assertThat(create.method()).isEqualTo("POST");
    assertThat(create.uri()).isEqualTo(
        URI.create("https://gitlab.com/api/v4/projects/shop%2Fteam%2Ffunctions/merge_requests/3/notes"));
    assertThat(json(create).path("body").asText()).isEqualTo("text");
    assertThat(edit.method()).isEqualTo("PUT");
    assertThat(edit.uri()).isEqualTo(
        URI.create("https://gitlab.com/api/v4/projects/shop%2Fteam%2Ffunctions/merge_requests/3/notes/2"));
    assertThat(json(edit).path("body").asText()).isEqualTo("new");
  }
}
