package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * GitHub: {@code X-GitHub-Event}, {@code X-GitHub-Delivery}, {@code X-Hub-Signature-256: sha256=<hex>}; the push
 * payload carries {@code ref}, {@code after} and {@code repository.clone_url/ssh_url/html_url}. A
 * {@code pull_request} event names the base repository the same way and the pull request under
 * {@code pull_request}.
 */
final class GitHubParser implements ForgeParser {

  private static final PayloadFields FIELDS =
      PayloadFields.of("ref", "after", "repository.clone_url", "repository.ssh_url", "repository.html_url");
  private static final PayloadFields PULL_REQUEST = PayloadFields.of("action", "number",
      "repository.clone_url", "repository.ssh_url", "repository.html_url",
      "pull_request.merged", "pull_request.title", "pull_request.user.login",
      "pull_request.labels[" + PullRequestChange.MAX_LABELS + "].name",
      "pull_request.head.sha", "pull_request.head.ref", "pull_request.head.repo.id",
      "pull_request.base.ref", "pull_request.base.repo.id");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.require("X-GitHub-Event");
    String id = headers.get("X-GitHub-Delivery").orElse(null);
    switch (event) {
      case "ping":
        return Delivery.ping(Forge.GITHUB, id, event);
      case "push":
        break;
      case "pull_request":
        return pullRequest(headers, id, event, Payload.parse(body, PULL_REQUEST));
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

  private static Delivery pullRequest(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    PullRequestChange change = new PullRequestChange(
        PullRequestFields.number(payload, "number"),
        action(payload),
        PullRequestFields.sha(payload, "pull_request.head.sha"),
        PullRequestFields.branch(payload, "pull_request.head.ref"),
        PullRequestFields.branch(payload, "pull_request.base.ref"),
        PullRequestFields.labels(payload, "pull_request.labels", "name"),
        // head.repo is null once the fork is deleted.
        PullRequestFields.differ(payload, "pull_request.head.repo.id", "pull_request.base.repo.id"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_TITLE, "pull_request.title"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_AUTHOR, "pull_request.user.login"));
    return Delivery.pullRequest(Forge.GITHUB, id, event,
        payload.repositoryUrls("repository.clone_url", "repository.ssh_url", "repository.html_url"), change,
        Proof.prefixedHmac(headers, "X-Hub-Signature-256"));
  }

  private static PullRequestChange.Action action(Payload payload) throws MalformedDeliveryException {
    return switch (payload.text("action")) {
      case "opened" -> PullRequestChange.Action.OPENED;
      case "synchronize" -> PullRequestChange.Action.UPDATED;
      case "labeled", "unlabeled" -> PullRequestChange.Action.LABELED;
      // A merge arrives as closed with merged set.
      case "closed" -> payload.flag("pull_request.merged")
          ? PullRequestChange.Action.MERGED : PullRequestChange.Action.CLOSED;
      case "reopened" -> PullRequestChange.Action.REOPENED;
      default -> PullRequestChange.Action.OTHER;
    };
  }
}
