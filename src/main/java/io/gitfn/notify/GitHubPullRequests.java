package io.gitfn.notify;

import static io.gitfn.notify.Paging.withQuery;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * GitHub's pull requests ({@code GET {api}/repos/{owner}/{repo}/pulls}) and their conversation comments, which
 * GitHub keeps as issue comments ({@code /repos/{owner}/{repo}/issues/{number}/comments}, edited with
 * {@code PATCH /repos/{owner}/{repo}/issues/comments/{id}}).
 */
final class GitHubPullRequests implements PullRequestApi {

  // 50, not GitHub's largest 100: each pull request carries its head and base repositories whole (~30 KiB).
  static final int PULL_REQUESTS_PER_PAGE = 50;
  static final int COMMENTS_PER_PAGE = 100;

  @Override
  public long firstPage() {
    return 1;
  }

  @Override
  public ForgeRequest openPullRequests(ForgeRepository repository, String token, long page) {
    // Oldest first: a pull request opened while gitfn pages goes to the end instead of pushing others a page on.
    return ForgeRequest.get(withQuery(Endpoint.of(repository.api(), "repos", repository.owner(), repository.name(),
        "pulls"), "state=open&sort=created&direction=asc&per_page=" + PULL_REQUESTS_PER_PAGE + "&page=" + page),
        headers(token));
  }

  @Override
  public ForgeRequest comments(ForgeRepository repository, String token, long number, long page) {
    return ForgeRequest.get(withQuery(issue(repository, number, "comments"),
        "per_page=" + COMMENTS_PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest create(ForgeRepository repository, String token, long number, String body) {
    return ForgeRequest.postJson(issue(repository, number, "comments"), headers(token),
        Json.object().put("body", body));
  }

  @Override
  public ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment,
      String body) {
    return ForgeRequest.json("PATCH", Endpoint.of(repository.api(), "repos", repository.owner(), repository.name(),
        "issues", "comments", comment.id()), headers(token), Json.object().put("body", body));
  }

  @Override
  public List<JsonAnswer> items(JsonAnswer page) {
    return page.items();
  }

  @Override
  public OpenPullRequest pullRequest(JsonAnswer item) {
    // A fork deleted since leaves head.repo null: gitfn cannot tell whose code it is, so it counts as a fork.
    boolean fromFork = !item.has("head", "repo")
        || !Objects.equals(item.text("head", "repo", "full_name"), item.text("base", "repo", "full_name"));
    return new OpenPullRequest(item.number("number"), item.text("head", "sha"), item.text("head", "ref"),
        item.text("base", "ref"), item.items("labels").stream().map(label -> label.text("name")).toList(),
        fromFork, item.time("updated_at"));
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

  private static URI issue(ForgeRepository repository, long number, String what) {
    return Endpoint.of(repository.api(), "repos", repository.owner(), repository.name(), "issues",
        Long.toString(number), what);
  }

  private static Map<String, String> headers(String token) {
    return Map.of("Accept", "application/vnd.github+json",
        "X-GitHub-Api-Version", GitHubStatus.API_VERSION,
        "Authorization", Authorization.bearer(token));
  }
}
