package io.gitfn.notify;

import static io.gitfn.notify.Paging.withQuery;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Bitbucket Server's and Data Center's pull requests ({@code GET {api}/projects/{KEY}/repos/{slug}/pull-requests})
 * and their general comments. Those are read from the pull request's activities: the {@code comments} resource lists
 * only the comments on one file. A comment is created with {@code POST .../comments} and edited with
 * {@code PUT .../comments/{id}}, naming the version it replaces.
 */
final class BitbucketServerPullRequests implements PullRequestApi {

  static final int PER_PAGE = 100;

  @Override
  public long firstPage() {
    return 0;
  }

  @Override
  public ForgeRequest openPullRequests(ForgeRepository repository, String token, long start) {
    return ForgeRequest.get(withQuery(repo(repository, "pull-requests"),
        "state=OPEN&limit=" + PER_PAGE + "&start=" + start), headers(token));
  }

  @Override
  public ForgeRequest comments(ForgeRepository repository, String token, long number, long start) {
    // Activities come newest first, and Bitbucket offers no other order.
    return ForgeRequest.get(withQuery(pullRequest(repository, number, "activities"),
        "limit=" + PER_PAGE + "&start=" + start), headers(token));
  }

  @Override
  public ForgeRequest create(ForgeRepository repository, String token, long number, String body) {
    return ForgeRequest.postJson(pullRequest(repository, number, "comments"), headers(token),
        Json.object().put("text", body));
  }

  @Override
  public ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment,
      String body) {
    return ForgeRequest.json("PUT", pullRequest(repository, number, "comments", comment.id()), headers(token),
        Json.object().put("text", body).put("version", comment.version()));
  }

  @Override
  public List<JsonAnswer> items(JsonAnswer page) {
    return page.items("values");
  }

  @Override
  public OpenPullRequest pullRequest(JsonAnswer item) {
    boolean fromFork = !repositoryKey(item, "fromRef").equals(repositoryKey(item, "toRef"));
    return new OpenPullRequest(item.number("id"), item.text("fromRef", "latestCommit"),
        item.text("fromRef", "displayId"), item.text("toRef", "displayId"), List.of(), fromFork,
        Instant.ofEpochMilli(item.number("updatedDate")));
  }

  @Override
  public Optional<ForgeComment> comment(JsonAnswer item) {
    // One ADDED activity per comment; edits and replies have their own, and a file comment has an anchor.
    boolean added = item.optionalText("action").filter("COMMENTED"::equals).isPresent()
        && item.optionalText("commentAction").filter("ADDED"::equals).isPresent();
    if (!added || item.has("commentAnchor")) {
      return Optional.empty();
    }
    JsonAnswer comment = item.object("comment");
    return Optional.of(new ForgeComment(Long.toString(comment.number("id")),
        comment.optionalText("text").orElse(""), comment.number("version")));
  }

  @Override
  public String id(JsonAnswer created) {
    return Long.toString(created.number("id"));
  }

  @Override
  public OptionalLong next(ForgeReader.Page page, long start) {
    return Paging.byNextStart(page, start);
  }

  private static String repositoryKey(JsonAnswer item, String ref) {
    return item.text(ref, "repository", "project", "key") + "/" + item.text(ref, "repository", "slug");
  }

  private static URI repo(ForgeRepository repository, String... rest) {
    return Endpoint.of(repository.api(), List.of("projects", repository.owner(), "repos", repository.name()), rest);
  }


  private static URI pullRequest(ForgeRepository repository, long number, String... rest) {
    return Endpoint.of(repository.api(), List.of("projects", repository.owner(), "repos", repository.name(),
        "pull-requests", Long.toString(number)), rest);
  }


  private static Map<String, String> headers(String token) {
    // Atlassian's XSRF check may refuse a write with basic auth that lacks this header.
    return Map.of("Authorization", Authorization.basicOrBearer(token), "X-Atlassian-Token", "no-check");
  }
}
