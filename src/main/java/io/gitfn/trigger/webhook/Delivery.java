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
 * @param proof what the sender presented to show it knows the secret
 */
record Delivery(
    Forge forge,
    String deliveryId,
    String event,
    Kind kind,
    List<RepositoryUrl> repositories,
    List<RefChange> changes,
    Proof proof) {

  enum Kind {
    /** A push to one or more refs: verify and trigger. */
    PUSH,
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
  }

  static Delivery push(Forge forge, String deliveryId, String event, List<RepositoryUrl> repositories,
      List<RefChange> changes, Proof proof) {
    return new Delivery(forge, deliveryId, event, Kind.PUSH, repositories, changes, proof);
  }

  static Delivery ping(Forge forge, String deliveryId, String event) {
    return new Delivery(forge, deliveryId, event, Kind.PING, List.of(), List.of(), new Proof.Absent("ping"));
  }

  static Delivery other(Forge forge, String deliveryId, String event) {
    return new Delivery(forge, deliveryId, event, Kind.OTHER, List.of(), List.of(), new Proof.Absent("ignored"));
  }
}
