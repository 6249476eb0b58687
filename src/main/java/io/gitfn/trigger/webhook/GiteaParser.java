package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * Gitea and Forgejo. Forgejo sends {@code X-Forgejo-*} headers and, for compatibility, the same values under
 * {@code X-Gitea-*}; the Forgejo name wins when both are present. The signature is the bare hex HMAC-SHA256 of
 * the body. The push payload is shaped like GitHub's. The "Test delivery" button sends an ordinary push of the
 * default branch's head, so it is handled like one.
 */
final class GiteaParser implements ForgeParser {

  private static final PayloadFields FIELDS =
      PayloadFields.of("ref", "after", "repository.clone_url", "repository.ssh_url", "repository.html_url");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.first("X-Forgejo-Event", "X-Gitea-Event")
        .orElseThrow(() -> new MalformedDeliveryException("header X-Gitea-Event (or X-Forgejo-Event) is missing"));
    String id = headers.first("X-Forgejo-Delivery", "X-Gitea-Delivery").orElse(null);
    if (!event.equals("push")) {
      return Delivery.other(Forge.GITEA, id, event);
    }
    Payload payload = Payload.parse(body, FIELDS);
    return Delivery.push(
        Forge.GITEA,
        id,
        event,
        payload.repositoryUrls("repository.clone_url", "repository.ssh_url", "repository.html_url"),
        List.of(RefChange.of(payload.ref("ref"), payload.optionalText("after").orElse(null))),
        Proof.bareHmac(headers, "X-Forgejo-Signature", "X-Gitea-Signature"));
  }
}
