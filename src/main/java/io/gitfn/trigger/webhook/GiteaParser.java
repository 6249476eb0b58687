package io.gitfn.trigger.webhook;

import java.util.List;
import java.util.Set;

/**
 * Gitea and Forgejo. Forgejo sends {@code X-Forgejo-*} headers and, for compatibility, the same values under
 * {@code X-Gitea-*}; the Forgejo name wins when both are present. The signature is the bare hex HMAC-SHA256 of
 * the body. The push payload is shaped like GitHub's. The "Test delivery" button sends an ordinary push of the
 * default branch's head, so it is handled like one. A pull request's body is shaped like GitHub's too, with the
 * head and base repositories' ids in {@code repo_id}.
 */
final class GiteaParser implements ForgeParser {

  private static final PayloadFields FIELDS =
      PayloadFields.of("ref", "after", "repository.clone_url", "repository.ssh_url", "repository.html_url");
  private static final PayloadFields PULL_REQUEST = PayloadFields.of("action", "number",
      "repository.clone_url", "repository.ssh_url", "repository.html_url",
      "pull_request.merged", "pull_request.title", "pull_request.user.login",
      "pull_request.labels[" + PullRequestChange.MAX_LABELS + "].name",
      "pull_request.head.sha", "pull_request.head.ref", "pull_request.head.repo_id",
      "pull_request.base.ref", "pull_request.base.repo_id");
  /**
   * The event types whose body is a pull request and an action. Gitea sends {@code X-Gitea-Event: pull_request}
   * for all of them and names the kind in {@code X-Gitea-Event-Type}; some versions send the kind as the event.
   * Reviews and comments have bodies of their own and are not read.
   */
  private static final Set<String> PULL_REQUEST_TYPES =
      Set.of("pull_request", "pull_request_sync", "pull_request_label", "pull_request_assign",
          "pull_request_milestone");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.first("X-Forgejo-Event", "X-Gitea-Event")
        .orElseThrow(() -> new MalformedDeliveryException("header X-Gitea-Event (or X-Forgejo-Event) is missing"));
    String id = headers.first("X-Forgejo-Delivery", "X-Gitea-Delivery").orElse(null);
    String type = headers.first("X-Forgejo-Event-Type", "X-Gitea-Event-Type").orElse(event);
    if (PULL_REQUEST_TYPES.contains(event) && PULL_REQUEST_TYPES.contains(type)) {
      return pullRequest(headers, id, event, Payload.parse(body, PULL_REQUEST));
    }
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

  private static Delivery pullRequest(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    PullRequestChange change = new PullRequestChange(
        PullRequestFields.number(payload, "number"),
        action(payload),
        PullRequestFields.sha(payload, "pull_request.head.sha"),
        PullRequestFields.branch(payload, "pull_request.head.ref"),
        PullRequestFields.branch(payload, "pull_request.base.ref"),
        PullRequestFields.labels(payload, "pull_request.labels", "name"),
        PullRequestFields.differ(payload, "pull_request.head.repo_id", "pull_request.base.repo_id"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_TITLE, "pull_request.title"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_AUTHOR, "pull_request.user.login"));
    return Delivery.pullRequest(Forge.GITEA, id, event,
        payload.repositoryUrls("repository.clone_url", "repository.ssh_url", "repository.html_url"), change,
        Proof.bareHmac(headers, "X-Forgejo-Signature", "X-Gitea-Signature"));
  }

  private static PullRequestChange.Action action(Payload payload) throws MalformedDeliveryException {
    return switch (payload.text("action")) {
      case "opened" -> PullRequestChange.Action.OPENED;
      case "synchronized" -> PullRequestChange.Action.UPDATED;
      case "label_updated", "label_cleared" -> PullRequestChange.Action.LABELED;
      // As on GitHub, a merge arrives as closed with merged set.
      case "closed" -> payload.flag("pull_request.merged")
          ? PullRequestChange.Action.MERGED : PullRequestChange.Action.CLOSED;
      case "reopened" -> PullRequestChange.Action.REOPENED;
      default -> PullRequestChange.Action.OTHER;
    };
  }
}
