package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.List;
import java.util.Objects;

/**
 * A delivery as a forge parser read it, before any secret was checked.
 *
 * @param deliveryId the forge's id of this delivery, or null when it sent none (then it is never deduplicated)
 * @param event the forge's event name
 * @param repositories every address the payload gives for the repository (clone, SSH, web); a source matches
 *     when any of them has its match key
 * @param changes the refs the push moved; more than one for Bitbucket pushes of several refs
 * @param pullRequest what a pull-request delivery says about it; null for every other kind. Its
 *     {@code repositories} are the base repository's, where a FunctionRepository points.
 * @param proof what the sender presented to show it knows the secret
 */
record Delivery(
    Forge forge,
    String deliveryId,
    String event,
    Kind kind,
    List<RepositoryUrl> repositories,
    List<RefChange> changes,
    PullRequestChange pullRequest,
    Proof proof) {

  enum Kind {
    /** A push to one or more refs: verify and trigger. */
    PUSH,
    /** A pull (merge) request opened, updated, labeled, closed, merged or reopened: verify and hand it on. */
    PULL_REQUEST,
    /** A forge checking that the hook works: answer 200, trigger nothing. */
    PING,
    /** Any other event the hook was set up to send: answer 200, trigger nothing. */
    OTHER
  }

  Delivery {
    Objects.requireNonNull(forge, "forge");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(kind, "kind");
    repositories = List.copyOf(repositories);
    changes = List.copyOf(changes);
    Objects.requireNonNull(proof, "proof");
    if (kind == Kind.PUSH && (repositories.isEmpty() || changes.isEmpty())) {
      throw new IllegalArgumentException("a push names a repository and at least one ref");
    }
    if ((kind == Kind.PULL_REQUEST) != (pullRequest != null)
        || kind == Kind.PULL_REQUEST && (repositories.isEmpty() || !changes.isEmpty())) {
      throw new IllegalArgumentException("a pull-request delivery, and only one, names a pull request and its base"
          + " repository, and no pushed refs");
    }
  }

  static Delivery push(Forge forge, String deliveryId, String event, List<RepositoryUrl> repositories,
      List<RefChange> changes, Proof proof) {
    return new Delivery(forge, deliveryId, event, Kind.PUSH, repositories, changes, null, proof);
  }

  static Delivery pullRequest(Forge forge, String deliveryId, String event, List<RepositoryUrl> baseRepository,
      PullRequestChange pullRequest, Proof proof) {
    return new Delivery(forge, deliveryId, event, Kind.PULL_REQUEST, baseRepository, List.of(), pullRequest, proof);
  }

  static Delivery ping(Forge forge, String deliveryId, String event) {
    return new Delivery(forge, deliveryId, event, Kind.PING, List.of(), List.of(), null, new Proof.Absent("ping"));
  }

  static Delivery other(Forge forge, String deliveryId, String event) {
    return new Delivery(forge, deliveryId, event, Kind.OTHER, List.of(), List.of(), null, new Proof.Absent("ignored"));
  }
}
