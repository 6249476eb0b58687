package io.gitfn.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Bitbucket Cloud's build status:
 * {@code POST https://api.bitbucket.org/2.0/repositories/{workspace}/{repo}/commit/{sha}/statuses/build}. A status
 * with the same key replaces the one before it, so the key is the context (or its hash, when that is too long).
 */
final class BitbucketCloudStatus {

  // Bitbucket Cloud refuses a longer key; Flux hashes every key with SHA-1 for the same reason.
  static final int KEY_LIMIT = 40;
  static final int DESCRIPTION_LIMIT = 255;

  private BitbucketCloudStatus() {}

  static ForgeRequest request(ForgeRepository repository, CommitStatus status, String token) {
    ObjectNode body = Json.object()
        .put("state", state(status.state()))
        .put("key", key(status.context()))
        .put("name", status.context())
        .put("description", status.descriptionWithin(DESCRIPTION_LIMIT))
        // Bitbucket refuses a status without url: the repository's page stands in for a missing link.
        .put("url", status.targetUrl() != null ? status.targetUrl() : repository.web().toString());
    return ForgeRequest.postJson(
        Endpoint.of(repository.api(), "repositories", repository.owner(), repository.name(),
            "commit", status.sha(), "statuses", "build"),
        Map.of("Authorization", Authorization.basicOrBearer(token)),
        body);
  }

  static String state(CommitState state) {
    return switch (state) {
      case PENDING -> "INPROGRESS";
      case SUCCESS -> "SUCCESSFUL";
      // STOPPED means someone stopped a build; neither gitfn's failure nor its error is that.
      case FAILURE, ERROR -> "FAILED";
    };
  }

  /** The context itself when it fits, else the hex SHA-1 of it: 40 characters, the same for the same context. */
  static String key(String context) {
    if (context.length() <= KEY_LIMIT) {
      return context;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(context.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is part of every Java runtime", e);
    }
  }
}
