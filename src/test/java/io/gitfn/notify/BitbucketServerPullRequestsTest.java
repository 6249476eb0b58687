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

class BitbucketServerPullRequestsTest {

  private static final String API = "https://bitbucket.example/rest/api/latest/projects/SHOP/repos/functions";

  private final BitbucketServerPullRequests api = new BitbucketServerPullRequests();
  private final ForgeRepository repository =
      repository("https://bitbucket.example/scm/SHOP/functions.git", Forge.BITBUCKET_SERVER);

  @Test
  void openPullRequestsArePagedByStartWithABearerTokenAndNoXsrfCheck() {
    ForgeRequest request = api.openPullRequests(repository, TOKEN, 100);

    assertThat(request.uri()).isEqualTo(URI.create(API + "/pull-requests?state=OPEN&limit=100&start=100"));
    assertThat(request.headers())
        .containsEntry("Authorization", "Bearer " + TOKEN)
        .containsEntry("X-Atlassian-Token", "no-check");
  }

  @Test
  void aPullRequestIsReadFromItsRefsAndAnotherRepositoryIsAFork() {
    List<JsonAnswer> items = api.items(answer("""
        {"size": 2, "limit": 100, "isLastPage": true, "start": 0, "values": [
          {"id": 11, "state": "OPEN", "updatedDate": 1772359200000,
           "fromRef": {"id": "refs/heads/feature", "displayId": "feature", "latestCommit": "%s",
                       "repository": {"slug": "functions", "project": {"key": "SHOP"}}},
           "toRef": {"id": "refs/heads/main", "displayId": "main", "latestCommit": "ffffffff",
                     "repository": {"slug": "functions", "project": {"key": "SHOP"}}}},
          {"id": 12, "updatedDate": 1772359200000,
           "fromRef": {"displayId": "main", "latestCommit": "%s",
                       "repository": {"slug": "functions", "project": {"key": "~ALICE"}}},
           "toRef": {"displayId": "main", "repository": {"slug": "functions", "project": {"key": "SHOP"}}}}]}
        """.formatted(SHA, SHA)));

    assertThat(items).map(api::pullRequest).containsExactly(
        new OpenPullRequest(11, SHA, "feature", "main", List.of(), false, Instant.ofEpochMilli(1772359200000L)),
        new OpenPullRequest(12, SHA, "main", "main", List.of(), true, Instant.ofEpochMilli(1772359200000L)));
  }

  @Test
  void commentsAreReadFromTheActivitiesThatAddedThemWithTheirVersion() {
    ForgeRequest list = api.comments(repository, TOKEN, 11, 0);
    List<JsonAnswer> items = api.items(answer("""
        {"isLastPage": true, "values": [
          {"id": 1, "action": "APPROVED"},
          {"id": 2, "action": "COMMENTED", "commentAction": "EDITED", "comment": {"id": 7, "version": 1, "text": "x"}},
          {"id": 3, "action": "COMMENTED", "commentAction": "ADDED", "commentAnchor": {"path": "f.js"},
           "comment": {"id": 8, "version": 0, "text": "on a file"}},
          {"id": 4, "action": "COMMENTED", "commentAction": "ADDED", "comment": {"id": 7, "version": 1, "text": "x"}}]}
        """));

    assertThat(list.uri()).isEqualTo(URI.create(API + "/pull-requests/11/activities?limit=100&start=0"));
    assertThat(items.stream().map(api::comment)).containsExactly(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(new ForgeComment("7", "x", 1)));
  }

  @Test
  void anEditNamesTheVersionItReplaces() {
    ForgeRequest create = api.create(repository, TOKEN, 11, "text");
    ForgeRequest edit = api.edit(repository, TOKEN, 11, new ForgeComment("7", "x", 3), "new");

    assertThat(create.uri()).isEqualTo(URI.create(API + "/pull-requests/11/comments"));
    assertThat(json(create).path("text").asText()).isEqualTo("text");
    assertThat(edit.method()).isEqualTo("PUT");
    assertThat(edit.uri()).isEqualTo(URI.create(API + "/pull-requests/11/comments/7"));
    assertThat(json(edit).path("text").asText()).isEqualTo("new");
    assertThat(json(edit).path("version").asLong()).isEqualTo(3);
  }
}
