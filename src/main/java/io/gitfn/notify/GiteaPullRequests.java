package io.gitfn.notify;

import static io.gitfn.notify.Paging.withQuery;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Gitea's and Forgejo's pull requests ({@code GET {api}/repos/{owner}/{repo}/pulls}) and their comments, which are
 * issue comments as on GitHub ({@code /repos/{owner}/{repo}/issues/{number}/comments}, edited with
 * {@code PATCH /repos/{owner}/{repo}/issues/comments/{id}}).
 */
final class GiteaPullRequests implements PullRequestApi {

  // Gitea's default MAX_RESPONSE_ITEMS: it answers a larger limit with this many anyway.
  static final int PER_PAGE = 50;

  @Override
  public long firstPage() {
    return 1;
  }

  @Override
  public ForgeRequest openPullRequests(ForgeRepository repository, String token, long page) {
    return ForgeRequest.get(withQuery(repo(repository, "pulls"), "state=open&limit=" + PER_PAGE + "&page=" + page),
        headers(token));
  }

  @Override
  public ForgeRequest comments(ForgeRepository repository, String token, long number, long page) {
    // Gitea lists an issue's comments all at once, ignoring limit and page (and sending no Link to a next page).
    return ForgeRequest.get(withQuery(repo(repository, "issues", Long.toString(number), "comments"),
        "limit=" + PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest create(ForgeRepository repository, String token, long number, String body) {
    return ForgeRequest.postJson(repo(repository, "issues", Long.toString(number), "comments"), headers(token),
        Json.object().put("body", body));
  }

  @Override
  public ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment,
      String body) {
    return ForgeRequest.json("PATCH", repo(repository, "issues", "comments", comment.id()), headers(token),
        Json.object().put("body", body));
  }

  @Override
  public List<JsonAnswer> items(JsonAnswer page) {
    return page.items();
  }

  @Override
  public OpenPullRequest pullRequest(JsonAnswer item) {
    return new OpenPullRequest(item.number("number"), item.text("head", "sha"), item.text("head", "ref"),
        item.text("base", "ref"), item.items("labels").stream().map(label -> label.text("name")).toList(),
        item.number("head", "repo_id") != item.number("base", "repo_id"), item.time("updated_at"));
  }

  @Override
  public Optional<ForgeComment> comment(JsonAnswer item) {
    return Optional.of(new ForgeComment(Long.toString(item.number("id")), item.optionalText("body").orElse(""), 0));
  }

  @Override
  public String id(JsonAnswer created) {
    return Long.toString(created.number("id"));
  }

  @Override
  public OptionalLong next(ForgeReader.Page page, long current) {
    return Paging.byLinkHeader(page, current);
  }

  private static URI repo(ForgeRepository repository, String... rest) {
    return Endpoint.of(repository.api(), List.of("repos", repository.owner(), repository.name()), rest);
  }


  private static Map<String, String> headers(String token) {
    return Map.of("Authorization", "token " + token);
  }
}
