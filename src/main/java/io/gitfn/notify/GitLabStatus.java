package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * GitLab's commit status: {@code POST {api}/projects/{namespace%2Fproject}/statuses/{sha}}, the project named by its
 * whole path, encoded as one segment.
 */
final class GitLabStatus {

  static final int DESCRIPTION_LIMIT = 255;

  private GitLabStatus() {}

  static ForgeRequest request(ForgeRepository repository, CommitStatus status, String token) {
    ObjectNode body = Json.object()
        .put("state", state(status.state()))
        .put("name", status.context())
        .put("description", status.descriptionWithin(DESCRIPTION_LIMIT));
    if (status.targetUrl() != null) {
      body.put("target_url", status.targetUrl());
    }
    return ForgeRequest.postJson(
        Endpoint.of(repository.api(), "projects", repository.fullPath(), "statuses", status.sha()),
        // GitLab takes personal, project and group access tokens in this header alike.
        Map.of("PRIVATE-TOKEN", token),
        body);
  }

  static String state(CommitState state) {
    return switch (state) {
      case PENDING -> "pending";
      case SUCCESS -> "success";
      // GitLab has no "error": a status that did not pass is failed either way.
      case FAILURE, ERROR -> "failed";
    };
  }
}
