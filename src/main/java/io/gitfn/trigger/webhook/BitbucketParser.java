package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Bitbucket Cloud ({@code X-Event-Key: repo:push}, {@code X-Request-UUID}) and Bitbucket Server/Data Center
 * ({@code repo:refs_changed}, {@code X-Request-Id}; {@code diagnostics:ping} from "Test connection"). Both sign
 * with {@code X-Hub-Signature: sha256=<hex>}. A push can move several refs at once.
 */
final class BitbucketParser implements ForgeParser {

  private static final PayloadFields CLOUD = PayloadFields.of("repository.links.html.href", "repository.full_name",
      "push.changes[].new.type", "push.changes[].new.name", "push.changes[].new.target.hash",
      "push.changes[].old.type", "push.changes[].old.name");
  private static final PayloadFields SERVER = PayloadFields.of("repository.links.clone[].href",
      "changes[].ref.id", "changes[].refId", "changes[].type", "changes[].toHash");

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
        return Delivery.other(Forge.BITBUCKET, id, event);
    }
  }

  private static Delivery cloudPush(Headers headers, String id, String event, Payload payload)
      throws MalformedDeliveryException {
    // A Cloud payload has no clone links; the web address and the full name identify the repository.
    List<RepositoryUrl> repositories = new ArrayList<>();
    Optional<String> html = payload.optionalText("repository.links.html.href");
    if (html.isPresent()) {
      repositories.add(payload.repositoryUrl("repository.links.html.href", html.get()));
    } else {
      String fullName = payload.text("repository.full_name");
      repositories.add(payload.repositoryUrl("repository.full_name", "https://bitbucket.org/" + fullName));
    }
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
    // Server's HTTP clone URL has /scm/ in its path and the SSH one does not, so each gets its own match key.
    List<RepositoryUrl> repositories = new ArrayList<>();
    for (Payload clone : payload.array("repository.links.clone")) {
      repositories.add(clone.repositoryUrl("href", clone.text("href")));
    }
    if (repositories.isEmpty()) {
      throw new MalformedDeliveryException("payload field repository.links.clone is empty");
    }
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
}
