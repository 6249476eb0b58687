package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bitbucket Cloud ({@code X-Event-Key: repo:push}, {@code X-Request-UUID}) and Bitbucket Server/Data Center
 * ({@code repo:refs_changed}, {@code X-Request-Id}; {@code diagnostics:ping} from "Test connection"). Both sign
 * with {@code X-Hub-Signature: sha256=<hex>}. A push can move several refs at once. Pull requests are told by
 * their event key: Cloud's {@code pullrequest:*}, Server's {@code pr:*}.
 */
final class BitbucketParser implements ForgeParser {

  private static final PayloadFields CLOUD = PayloadFields.of("repository.links.html.href", "repository.full_name",
      "push.changes[].new.type", "push.changes[].new.name", "push.changes[].new.target.hash",
      "push.changes[].old.type", "push.changes[].old.name");
  private static final PayloadFields SERVER = PayloadFields.of("repository.links.clone[].href",
      "changes[].ref.id", "changes[].refId", "changes[].type", "changes[].toHash");
  private static final PayloadFields CLOUD_PULL_REQUEST = PayloadFields.of(
      "repository.links.html.href", "repository.full_name",
      "pullrequest.id", "pullrequest.title", "pullrequest.author.nickname", "pullrequest.author.display_name",
      "pullrequest.source.branch.name", "pullrequest.source.commit.hash", "pullrequest.source.repository.full_name",
      "pullrequest.destination.branch.name", "pullrequest.destination.repository.full_name");
  private static final PayloadFields SERVER_PULL_REQUEST = PayloadFields.of(
      "pullRequest.id", "pullRequest.title", "pullRequest.author.user.name",
      "pullRequest.fromRef.id", "pullRequest.fromRef.latestCommit", "pullRequest.fromRef.repository.id",
      "pullRequest.toRef.id", "pullRequest.toRef.repository.id", "pullRequest.toRef.repository.links.clone[].href");
  /** Cloud's pull-request event keys that gitfn acts on; the rest (comments, approvals) are other events. */
  private static final Map<String, PullRequestChange.Action> CLOUD_ACTIONS = Map.of(
      "pullrequest:created", PullRequestChange.Action.OPENED,
      // Sent for a new commit on the source branch, but also for a new title or description.
      "pullrequest:updated", PullRequestChange.Action.UPDATED,
      "pullrequest:fulfilled", PullRequestChange.Action.MERGED,
      "pullrequest:rejected", PullRequestChange.Action.CLOSED);
  private static final Map<String, PullRequestChange.Action> SERVER_ACTIONS = Map.of(
      "pr:opened", PullRequestChange.Action.OPENED,
      "pr:from_ref_updated", PullRequestChange.Action.UPDATED,
      "pr:merged", PullRequestChange.Action.MERGED,
      "pr:declined", PullRequestChange.Action.CLOSED,
      // A deleted pull request is gone as a declined one is.
      "pr:deleted", PullRequestChange.Action.CLOSED,
      "pr:reopened", PullRequestChange.Action.REOPENED);

  @Override
  public Delivery parse(Headers headers, byte[] body) throws MalformedDeliveryException {
    String event = headers.require("X-Event-Key");
    String id = headers.first("X-Request-UUID", "X-Request-Id").orElse(null);
    switch (event) {
      case "diagnostics:ping":
        return Delivery.ping(Forge.BITBUCKET, id, event);
      case "repo:push":
        return cloudPush(headers, id, event, Payload.parse(body, CLOUD));
      case "repo:refs_changed":
        return serverPush(headers, id, event, Payload.parse(body, SERVER));
      default:
        break;
    }
    if (CLOUD_ACTIONS.containsKey(event)) {
      return cloudPullRequest(headers, id, event, CLOUD_ACTIONS.get(event), Payload.parse(body, CLOUD_PULL_REQUEST));
    }
    if (SERVER_ACTIONS.containsKey(event)) {
      return serverPullRequest(headers, id, event, SERVER_ACTIONS.get(event), Payload.parse(body, SERVER_PULL_REQUEST));
    }
    return Delivery.other(Forge.BITBUCKET, id, event);
  }

  /** Cloud has no labels; its hashes are 12-digit short ones. */
  private static Delivery cloudPullRequest(Headers headers, String id, String event, PullRequestChange.Action action,
      Payload payload) throws MalformedDeliveryException {
    PullRequestChange change = new PullRequestChange(
        PullRequestFields.number(payload, "pullrequest.id"),
        action,
        PullRequestFields.sha(payload, "pullrequest.source.commit.hash"),
        PullRequestFields.branch(payload, "pullrequest.source.branch.name"),
        PullRequestFields.branch(payload, "pullrequest.destination.branch.name"),
        List.of(),
        PullRequestFields.differ(payload, "pullrequest.source.repository.full_name",
            "pullrequest.destination.repository.full_name"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_TITLE, "pullrequest.title"),
        // Usernames left Bitbucket Cloud's payloads in 2019; the nickname replaced them.
        PullRequestFields.shown(payload, PullRequestChange.MAX_AUTHOR, "pullrequest.author.nickname",
            "pullrequest.author.display_name"));
    return Delivery.pullRequest(Forge.BITBUCKET, id, event, cloudRepository(payload), change,
        Proof.prefixedHmac(headers, "X-Hub-Signature"));
  }

  /** Server names the base repository in {@code toRef} and has no labels. */
  private static Delivery serverPullRequest(Headers headers, String id, String event, PullRequestChange.Action action,
      Payload payload) throws MalformedDeliveryException {
    PullRequestChange change = new PullRequestChange(
        PullRequestFields.number(payload, "pullRequest.id"),
        action,
        PullRequestFields.sha(payload, "pullRequest.fromRef.latestCommit"),
        PullRequestFields.branch(payload, "pullRequest.fromRef.id"),
        PullRequestFields.branch(payload, "pullRequest.toRef.id"),
        List.of(),
        PullRequestFields.differ(payload, "pullRequest.fromRef.repository.id", "pullRequest.toRef.repository.id"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_TITLE, "pullRequest.title"),
        PullRequestFields.shown(payload, PullRequestChange.MAX_AUTHOR, "pullRequest.author.user.name"));
    return Delivery.pullRequest(Forge.BITBUCKET, id, event,
        serverRepository(payload, "pullRequest.toRef.repository.links.clone"), change,
        Proof.prefixedHmac(headers, "X-Hub-Signature"));
  }

  private static Delivery cloudPush(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    List<RepositoryUrl> repositories = cloudRepository(payload);
    List<RefChange> changes = new ArrayList<>();
    for (Payload change : payload.array("push.changes")) {
      // new is null when the push deleted the ref; old then names it.
      Optional<Payload> now = change.object("new");
      Payload named = now.or(() -> change.object("old")).orElseThrow(() -> change.missing("new"));
      String type = named.text("type");
      String prefix = switch (type) {
        case "branch" -> "refs/heads/";
        case "tag" -> "refs/tags/";
        default -> null; // Mercurial named branches and bookmarks have no Git ref.
      };
      if (prefix != null) {
        String after = now.isPresent() ? now.get().text("target.hash") : null;
        changes.add(RefChange.of(named.checkedRef("name", prefix + named.text("name")), after));
      }
    }
    if (changes.isEmpty()) {
      throw new MalformedDeliveryException("payload field push.changes names no branch or tag");
    }
    return Delivery.push(Forge.BITBUCKET, id, event, repositories, changes,
        Proof.prefixedHmac(headers, "X-Hub-Signature"));
  }

  private static Delivery serverPush(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    List<RepositoryUrl> repositories = serverRepository(payload, "repository.links.clone");
    List<RefChange> changes = new ArrayList<>();
    for (Payload change : payload.array("changes")) {
      String ref = change.optionalText("ref.id").or(() -> change.optionalText("refId"))
          .orElseThrow(() -> change.missing("ref.id"));
      change.checkedRef("ref.id", ref);
      String after = change.optionalText("type").orElse("").equals("DELETE") ? null : change.text("toHash");
      changes.add(RefChange.of(ref, after));
    }
    if (changes.isEmpty()) {
      throw new MalformedDeliveryException("payload field changes is empty");
    }
    return Delivery.push(Forge.BITBUCKET, id, event, repositories, changes,
        Proof.prefixedHmac(headers, "X-Hub-Signature"));
  }

  // A Cloud payload has no clone links; the web address and the full name identify the repository.
  private static List<RepositoryUrl> cloudRepository(Payload payload) throws MalformedDeliveryException {
    Optional<String> html = payload.optionalText("repository.links.html.href");
    if (html.isPresent()) {
      return List.of(payload.repositoryUrl("repository.links.html.href", html.get()));
    }
    String fullName = payload.text("repository.full_name");
    return List.of(payload.repositoryUrl("repository.full_name", "https://bitbucket.org/" + fullName));
  }

  // Server's HTTP clone URL has /scm/ in its path and the SSH one does not, so each gets its own match key.
  private static List<RepositoryUrl> serverRepository(Payload payload, String clonePath)
      throws MalformedDeliveryException {
    List<RepositoryUrl> repositories = new ArrayList<>();
    for (Payload clone : payload.array(clonePath)) {
      repositories.add(clone.repositoryUrl("href", clone.text("href")));
    }
    if (repositories.isEmpty()) {
      throw new MalformedDeliveryException("payload field " + payload.name(clonePath) + " is empty");
    }
    return repositories;
  }
}
