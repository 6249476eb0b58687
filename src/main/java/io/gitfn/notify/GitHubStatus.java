package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * GitHub's and GitHub Enterprise Server's commit status:
 * {@code POST {api}/repos/{owner}/{repo}/statuses/{sha}}.
 */
final class GitHubStatus {

  // GitHub answers 422 to a longer description.
  static final int DESCRIPTION_LIMIT = 140;
  static final String API_VERSION = "2022-11-28";

  private GitHubStatus() {}

  static ForgeRequest request(ForgeRepository repository, CommitStatus status, String token) {
    ObjectNode body = Json.object()
        .put("state", status.state().word())
        .put("description", status.descriptionWithin(DESCRIPTION_LIMIT))
        .put("context", status.context());
    if (status.targetUrl() != null) {
      body.put("target_url", status.targetUrl());
    }
    return ForgeRequest.postJson(
        Endpoint.of(repository.api(), "repos", repository.owner(), repository.name(), "statuses", status.sha()),
        Map.of("Accept", "application/vnd.github+json",
            "X-GitHub-Api-Version", API_VERSION,
            "Authorization", Authorization.bearer(token)),
        body);
  }
}
