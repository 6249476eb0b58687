package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Gitea's and Forgejo's commit status: {@code POST {api}/repos/{owner}/{repo}/statuses/{sha}}. Forgejo forked Gitea
 * and kept this API as it was, states included.
 */
final class GiteaStatus {

  static final int DESCRIPTION_LIMIT = 255;

  private GiteaStatus() {}

  static ForgeRequest request(ForgeRepository repository, CommitStatus status, String token) {
    ObjectNode body = Json.object()
        // Gitea's states are GitHub's four (plus "warning", which gitfn does not use).
        .put("state", status.state().word())
        .put("description", status.descriptionWithin(DESCRIPTION_LIMIT))
        .put("context", status.context());
    if (status.targetUrl() != null) {
      body.put("target_url", status.targetUrl());
    }
    return ForgeRequest.postJson(
        Endpoint.of(repository.api(), "repos", repository.owner(), repository.name(), "statuses", status.sha()),
        Map.of("Authorization", "token " + token),
        body);
  }
}
