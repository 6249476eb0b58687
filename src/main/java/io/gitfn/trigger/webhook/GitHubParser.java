package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * GitHub: {@code X-GitHub-Event}, {@code X-GitHub-Delivery}, {@code X-Hub-Signature-256: sha256=<hex>}; the push
 * payload carries {@code ref}, {@code after} and {@code repository.clone_url/ssh_url/html_url}.
 */
final class GitHubParser implements ForgeParser {

  private static final PayloadFields FIELDS =
      PayloadFields.of("ref", "after", "repository.clone_url", "repository.ssh_url", "repository.html_url");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.require("X-GitHub-Event");
    String id = headers.get("X-GitHub-Delivery").orElse(null);
    switch (event) {
      case "ping":
        return Delivery.ping(Forge.GITHUB, id, event);
      case "push":
        break;
      default:
        return Delivery.other(Forge.GITHUB, id, event);
    }
    Payload payload = Payload.parse(body, FIELDS);
    return Delivery.push(
        Forge.GITHUB,
        id,
        event,
        payload.repositoryUrls("repository.clone_url", "repository.ssh_url", "repository.html_url"),
        List.of(RefChange.of(payload.ref("ref"), payload.optionalText("after").orElse(null))),
        // The legacy X-Hub-Signature is HMAC-SHA1; only the SHA-256 header is accepted.
        Proof.prefixedHmac(headers, "X-Hub-Signature-256"));
  }
}
