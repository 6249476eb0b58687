package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Bitbucket Server's and Data Center's build status:
 * {@code POST {api}/projects/{PROJECT}/repos/{repo}/commits/{sha}/builds}, {@code api} being
 * {@code https://host[/context]/rest/api/latest}.
 *
 * <p>This is the repository's builds resource (Bitbucket 7.4 and later), not {@code /rest/build-status/1.0}:
 * Atlassian deprecated that one in 7.14, and an HTTP access token scoped to a project or repository cannot use it.
 */
final class BitbucketServerStatus {

  // Bitbucket Server keeps every field up to 255 characters, the url up to 450.
  static final int DESCRIPTION_LIMIT = 255;
  static final int URL_LIMIT = 450;

  private BitbucketServerStatus() {}

  static ForgeRequest request(ForgeRepository repository, CommitStatus status, String token) {
    ObjectNode body = Json.object()
        .put("state", state(status.state()))
        // A build with the same key replaces the one before it; a context fits the 255 characters a key may have.
        .put("key", status.context())
        .put("name", status.context())
        .put("description", status.descriptionWithin(DESCRIPTION_LIMIT))
        .put("url", url(repository, status));
    return ForgeRequest.postJson(
        Endpoint.of(repository.api(), "projects", repository.owner(), "repos", repository.name(),
            "commits", status.sha(), "builds"),
        // Atlassian's XSRF check may refuse a POST with basic auth that lacks this header; Flux sends it too.
        Map.of("Authorization", Authorization.basicOrBearer(token), "X-Atlassian-Token", "no-check"),
        body);
  }

  /**
   * The status's link, or the repository's page when it has none or one too long to keep: Bitbucket refuses a
   * build status without url, and a longer one.
   */
  static String url(ForgeRepository repository, CommitStatus status) {
    String link = status.targetUrl();
    return link != null && link.length() <= URL_LIMIT ? link : repository.web().toString();
  }

  static String state(CommitState state) {
    return switch (state) {
      case PENDING -> "INPROGRESS";
      case SUCCESS -> "SUCCESSFUL";
      case FAILURE, ERROR -> "FAILED";
    };
  }
}
