package io.gitfn.notify;

import static io.gitfn.notify.Paging.withQuery;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Bitbucket Cloud's pull requests ({@code GET /2.0/repositories/{workspace}/{slug}/pullrequests}) and their comments
 * ({@code /pullrequests/{id}/comments}, edited with {@code PUT /comments/{id}}).
 */
final class BitbucketCloudPullRequests implements PullRequestApi {

  // Bitbucket Cloud's largest page of pull requests.
  static final int PULL_REQUESTS_PER_PAGE = 50;
  static final int COMMENTS_PER_PAGE = 100;

  @Override
  public long firstPage() {
    return 1;
  }

  @Override
  public ForgeRequest openPullRequests(ForgeRepository repository, String token, long page) {
    return ForgeRequest.get(withQuery(repo(repository, "pullrequests"),
        "state=OPEN&pagelen=" + PULL_REQUESTS_PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest comments(ForgeRepository repository, String token, long number, long page) {
    return ForgeRequest.get(withQuery(repo(repository, "pullrequests", Long.toString(number), "comments"),
        "pagelen=" + COMMENTS_PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest create(ForgeRepository repository, String token, long number, String body) {
    return ForgeRequest.postJson(repo(repository, "pullrequests", Long.toString(number), "comments"),
        headers(token), content(body));
  }

  @Override
  public ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment,
      String body) {
    return ForgeRequest.json("PUT", repo(repository, "pullrequests", Long.toString(number), "comments",
        comment.id()), headers(token), content(body));
  }

  @Override
  public List<JsonAnswer> items(JsonAnswer page) {
    return page.items("values");
  }

  @Override
  public OpenPullRequest pullRequest(JsonAnswer item) {
    // A fork deleted since leaves source.repository null: it counts as a fork.
    boolean fromFork = !item.has("source", "repository")
        || !Objects.equals(item.text("source", "repository", "full_name"),
            item.text("destination", "repository", "full_name"));
    return new OpenPullRequest(item.number("id"), item.text("source", "commit", "hash"),
        item.text("source", "branch", "name"), item.text("destination", "branch", "name"), List.of(), fromFork,
        item.time("updated_on"));
  }

  @Override
  public Optional<ForgeComment> comment(JsonAnswer item) {
    // A deleted comment stays in the list; a comment on a line of a file is not one gitfn writes.
    if (item.flag(false, "deleted") || item.has("inline")) {
      return Optional.empty();
    }
    return Optional.of(new ForgeComment(Long.toString(item.number("id")),
        item.optionalText("content", "raw").orElse(""), 0));
  }

  @Override
  public String id(JsonAnswer created) {
    return Long.toString(created.number("id"));
  }

  @Override
  public OptionalLong next(ForgeReader.Page page, long current) {
    return Paging.byNextField(page, current);
  }

  private static ObjectNode content(String body) {
    ObjectNode json = Json.object();
    json.putObject("content").put("raw", body);
    return json;
  }

  private static URI repo(ForgeRepository repository, String... rest) {
    return Endpoint.of(repository.api(), List.of("repositories", repository.owner(), repository.name()), rest);
  }


  private static Map<String, String> headers(String token) {
    return Map.of("Authorization", Authorization.basicOrBearer(token));
  }
}
