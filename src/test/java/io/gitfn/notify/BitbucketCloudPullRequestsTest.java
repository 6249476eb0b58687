package io.gitfn.notify;

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

class BitbucketCloudPullRequestsTest {

  private final BitbucketCloudPullRequests api = new BitbucketCloudPullRequests();
  private final ForgeRepository repository = repository("https://bitbucket.org/shop/functions.git");

  @Test
  void openPullRequestsAreListedFiftyAPageWithBasicAuthForAUserAndPassword() {
    ForgeRequest request = api.openPullRequests(repository, "robot:app-password", 1);

    assertThat(request.uri()).isEqualTo(URI.create(
        "https://api.bitbucket.org/2.0/repositories/shop/functions/pullrequests?state=OPEN&pagelen=50&page=1"));
    assertThat(request.headers().get("Authorization")).startsWith("Basic ");
  }

  @Test
  void aPullRequestIsReadFromItsSourceAndDestinationWithTheAbbreviatedHashBitbucketLists() {
    List<JsonAnswer> items = api.items(answer("""
        {"pagelen": 50, "page": 1, "values": [
          {"id": 5, "state": "OPEN", "updated_on": "2026-03-01T10:00:00.123456+00:00",
           "source": {"branch": {"name": "feature"}, "commit": {"hash": "0123456789ab"},
                      "repository": {"full_name": "shop/functions"}},
           "destination": {"branch": {"name": "main"}, "commit": {"hash": "ba9876543210"},
                           "repository": {"full_name": "shop/functions"}}},
          {"id": 6, "updated_on": "2026-03-01T10:00:00+00:00",
           "source": {"branch": {"name": "main"}, "commit": {"hash": "0123456789ab"},
                      "repository": {"full_name": "someone/functions"}},
           "destination": {"branch": {"name": "main"}, "repository": {"full_name": "shop/functions"}}}]}
        """));

    assertThat(items).map(api::pullRequest).containsExactly(
        new OpenPullRequest(5, "0123456789ab", "feature", "main", List.of(), false,
            Instant.parse("2026-03-01T10:00:00.123456Z")),
        new OpenPullRequest(6, "0123456789ab", "main", "main", List.of(), true,
            Instant.parse("2026-03-01T10:00:00Z")));
  }

  @Test
  void deletedAndInlineCommentsAreNotGitfns() {
    List<JsonAnswer> items = api.items(answer("""
        {"values": [{"id": 1, "content": {"raw": "a"}, "deleted": true},
                    {"id": 2, "content": {"raw": "b"}, "inline": {"path": "f.js", "to": 3}},
                    {"id": 3, "content": {"raw": "c"}, "deleted": false}]}"""));

    assertThat(items.stream().map(api::comment))
        .containsExactly(Optional.empty(), Optional.empty(), Optional.of(new ForgeComment("3", "c", 0)));
  }

  @Test
  void aCommentIsCreatedAndEditedWithItsRawContent() {
    ForgeRequest list = api.comments(repository, TOKEN, 5, 2);
    ForgeRequest create = api.create(repository, TOKEN, 5, "text");
    ForgeRequest edit = api.edit(repository, TOKEN, 5, new ForgeComment("3", "c", 0), "new");

    assertThat(list.uri()).isEqualTo(URI.create(
        "https://api.bitbucket.org/2.0/repositories/shop/functions/pullrequests/5/comments?pagelen=100&page=2"));
    assertThat(create.method()).isEqualTo("POST");
    assertThat(json(create).path("content").path("raw").asText()).isEqualTo("text");
    assertThat(edit.method()).isEqualTo("PUT");
    assertThat(edit.uri()).isEqualTo(
        URI.create("https://api.bitbucket.org/2.0/repositories/shop/functions/pullrequests/5/comments/3"));
    assertThat(json(edit).path("content").path("raw").asText()).isEqualTo("new");
  }
}
