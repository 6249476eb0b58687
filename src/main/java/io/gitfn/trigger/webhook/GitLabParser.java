package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * GitLab: {@code X-Gitlab-Event: Push Hook} or {@code Tag Push Hook} (or a {@code System Hook} whose
 * {@code object_kind} is a push), and {@code X-Gitlab-Token}. The payload names the repository under
 * {@code project} (older versions under {@code repository}). GitLab has no ping: its "Test" button sends a push.
 */
final class GitLabParser implements ForgeParser {

  private static final PayloadFields FIELDS = PayloadFields.of("object_kind", "ref", "after", "checkout_sha",
      "project.git_http_url", "project.git_ssh_url", "project.web_url",
      "repository.git_http_url", "repository.git_ssh_url", "repository.homepage");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.require("X-Gitlab-Event");
    // Idempotency-Key (GitLab 17.4+) stays the same when GitLab retries a delivery; the event UUID may not.
    String id = headers.first("Idempotency-Key", "X-Gitlab-Event-UUID").orElse(null);
    if (!event.equals("Push Hook") && !event.equals("Tag Push Hook") && !event.equals("System Hook")) {
      return Delivery.other(Forge.GITLAB, id, event);
    }
    Payload payload = Payload.parse(body, FIELDS);
    if (event.equals("System Hook")) {
      String kind = payload.optionalText("object_kind").orElse("");
      if (!kind.equals("push") && !kind.equals("tag_push")) {
        return Delivery.other(Forge.GITLAB, id, event + " " + kind);
      }
    }
    var repositories = payload.object("project").isPresent()
        ? payload.repositoryUrls("project.git_http_url", "project.git_ssh_url", "project.web_url")
        : payload.repositoryUrls("repository.git_http_url", "repository.git_ssh_url", "repository.homepage");
    // checkout_sha is the commit even for an annotated tag, where after is the tag object; it is null on deletion.
    String after = payload.optionalText("checkout_sha").or(() -> payload.optionalText("after")).orElse(null);
    return Delivery.push(
        Forge.GITLAB,
        id,
        event,
        repositories,
        List.of(RefChange.of(payload.ref("ref"), after)),
        // GitLab sends the token, not a signature.
        headers.get("X-Gitlab-Token")
            .<Proof>map(Proof.Token::new)
            .orElse(new Proof.Absent("header X-Gitlab-Token is missing: set the hook's secret token")));
  }
}
