package io.gitfn.trigger.webhook;

import java.util.List;

/**
 * GitLab: {@code X-Gitlab-Event: Push Hook} or {@code Tag Push Hook} (or a {@code System Hook} whose
 * {@code object_kind} is a push), {@code Merge Request Hook} (or such a system hook), and {@code X-Gitlab-Token}. The payload names the repository under
 * {@code project} (older versions under {@code repository}). GitLab has no ping: its "Test" button sends a push.
 */
final class GitLabParser implements ForgeParser {

  private static final PayloadFields FIELDS = PayloadFields.of("object_kind", "ref", "after", "checkout_sha",
      "project.git_http_url", "project.git_ssh_url", "project.web_url",
      "repository.git_http_url", "repository.git_ssh_url", "repository.homepage");
  private static final PayloadFields MERGE_REQUEST = PayloadFields.of("object_kind",
      "project.git_http_url", "project.git_ssh_url", "project.web_url", "user.username",
      "object_attributes.iid", "object_attributes.action", "object_attributes.oldrev", "object_attributes.title",
      "object_attributes.last_commit.id", "object_attributes.source_branch", "object_attributes.target_branch",
      "object_attributes.source_project_id", "object_attributes.target_project_id",
      "labels[" + PullRequestChange.MAX_LABELS + "].title",
      "changes.labels.previous[" + PullRequestChange.MAX_LABELS + "].title",
      "changes.labels.current[" + PullRequestChange.MAX_LABELS + "].title");

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.require("X-Gitlab-Event");
    // Idempotency-Key (GitLab 17.4+) stays the same when GitLab retries a delivery; the event UUID may not.
    String id = headers.first("Idempotency-Key", "X-Gitlab-Event-UUID").orElse(null);
    if (event.equals("Merge Request Hook")) {
      return mergeRequest(headers, id, event, Payload.parse(body, MERGE_REQUEST));
    }
    if (!event.equals("Push Hook") && !event.equals("Tag Push Hook") && !event.equals("System Hook")) {
      return Delivery.other(Forge.GITLAB, id, event);
    }
    Payload payload = Payload.parse(body, FIELDS);
    if (event.equals("System Hook")) {
      String kind = payload.optionalText("object_kind").orElse("");
      if (kind.equals("merge_request")) {
        return mergeRequest(headers, id, event, Payload.parse(body, MERGE_REQUEST));
      }
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
        token(headers));
  }

  /**
   * A merge request names its target (base) project under {@code project} and itself under
   * {@code object_attributes}; labels are at the top level, and {@code changes.labels} says they changed.
   */
  private static Delivery mergeRequest(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    PullRequestChange change = new PullRequestChange(
        PullRequestFields.number(payload, "object_attributes.iid"),
        action(payload),
        PullRequestFields.sha(payload, "object_attributes.last_commit.id"),
        PullRequestFields.branch(payload, "object_attributes.source_branch"),
        PullRequestFields.branch(payload, "object_attributes.target_branch"),
        PullRequestFields.labels(payload, "labels", "title"),
        PullRequestFields.differ(payload, "object_attributes.source_project_id",
            "object_attributes.target_project_id"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_TITLE, "object_attributes.title"),
        // The payload names the author by id only; the user is who caused the event.
        PullRequestFields.shown(payload, PullRequestChange.MAX_AUTHOR, "user.username"));
    return Delivery.pullRequest(Forge.GITLAB, id, event,
        payload.repositoryUrls("project.git_http_url", "project.git_ssh_url", "project.web_url"), change,
        token(headers));
  }

  private static PullRequestChange.Action action(Payload payload) throws MalformedDeliveryException {
    return switch (payload.text("object_attributes.action")) {
      case "open" -> PullRequestChange.Action.OPENED;
      // An update carries oldrev only when it pushed commits; otherwise changes says what changed.
      case "update" -> payload.optionalText("object_attributes.oldrev").isPresent()
          ? PullRequestChange.Action.UPDATED
          : payload.object("changes.labels").isPresent() ? PullRequestChange.Action.LABELED
          : PullRequestChange.Action.OTHER;
      case "close" -> PullRequestChange.Action.CLOSED;
      case "merge" -> PullRequestChange.Action.MERGED;
      case "reopen" -> PullRequestChange.Action.REOPENED;
      default -> PullRequestChange.Action.OTHER;
    };
  }

  // GitLab sends the token, not a signature.
  private static Proof token(Headers headers) {
    return headers.get("X-Gitlab-Token")
        .<Proof>map(Proof.Token::new)
        .orElse(new Proof.Absent("header X-Gitlab-Token is missing: set the hook's secret token"));
  }
}
