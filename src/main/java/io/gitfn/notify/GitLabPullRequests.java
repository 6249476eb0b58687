package io.gitfn.notify;

import static io.gitfn.notify.Paging.withQuery;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * GitLab's merge requests ({@code GET {api}/projects/{namespace%2Fproject}/merge_requests}) and their notes
 * ({@code /merge_requests/{iid}/notes}, edited with {@code PUT /notes/{id}}).
 */
final class GitLabPullRequests implements PullRequestApi {

  static final int PER_PAGE = 100;

  @Override
  public long firstPage() {
    return 1;
  }

  @Override
  public ForgeRequest openPullRequests(ForgeRepository repository, String token, long page) {
    return ForgeRequest.get(withQuery(project(repository, "merge_requests"),
        "state=opened&order_by=created_at&sort=asc&per_page=" + PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest comments(ForgeRepository repository, String token, long number, long page) {
    // GitLab lists notes newest first unless told; gitfn's comment is among the first a merge request gets.
    return ForgeRequest.get(withQuery(notes(repository, number),
        "order_by=created_at&sort=asc&per_page=" + PER_PAGE + "&page=" + page), headers(token));
  }

  @Override
  public ForgeRequest create(ForgeRepository repository, String token, long number, String body) {
    return ForgeRequest.postJson(notes(repository, number), headers(token), Json.object().put("body", body));
  }

  @Override
  public ForgeRequest edit(ForgeRepository repository, String token, long number, ForgeComment comment,
      String body) {
    return ForgeRequest.json("PUT", URI.create(notes(repository, number) + Endpoint.path(comment.id())),
        headers(token), Json.object().put("body", body));
  }

  @Override
  public List<JsonAnswer> items(JsonAnswer page) {
    return page.items();
  }

  @Override
  public OpenPullRequest pullRequest(JsonAnswer item) {
    return new OpenPullRequest(item.number("iid"), item.text("sha"), item.text("source_branch"),
        item.text("target_branch"), item.items("labels").stream().map(label -> label.text()).toList(),
        item.number("source_project_id") != item.number("target_project_id"), item.time("updated_at"));
  }

  @Override
  public Optional<ForgeComment> comment(JsonAnswer item) {
    // System notes ("added 1 commit") are GitLab's own, and no user can edit them.
    if (item.flag(false, "system")) {
      return Optional.empty();
    }
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

  private static URI project(ForgeRepository repository, String... rest) {
    return Endpoint.of(repository.api(), List.of("projects", repository.fullPath()), rest);
  }


  private static URI notes(ForgeRepository repository, long number) {
    return project(repository, "merge_requests", Long.toString(number), "notes");
  }

  private static Map<String, String> headers(String token) {
    return Map.of("PRIVATE-TOKEN", token);
  }
}
