package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a read delivery does: finds the sources that track its repository, keeps those whose secret
 * verifies the delivery, and triggers each of them whose ref the push moved, once. Pure apart from the targets it
 * calls. A verified pull-request delivery is handed to {@link PullRequestTargets} instead, and triggers nothing.
 *
 * <p>A source with a secret of its own is verified by that secret only. A source without one is verified by the
 * controller-wide secret, when there is one. A delivery that no secret for its repository verifies is refused with
 * the same answer whether or not the repository is tracked, so that a sender without a secret learns nothing about
 * what gitfn tracks; only a delivery the controller-wide secret verifies is told that nothing tracks it. The work
 * an unverified delivery can cause is bounded: at most {@link #MAX_ADDRESSES} repository addresses are looked up,
 * and at most one HMAC is computed per distinct secret, for at most {@link #MAX_SECRETS} secrets.
 */
final class PushFanout {

  /** A payload names its repository two or three ways (clone, SSH and web address); more is not a forge's. */
  static final int MAX_ADDRESSES = 4;
  /** Sources of one repository usually share a secret; past this many, the rest are not tried. */
  static final int MAX_SECRETS = 16;

  private static final Logger LOG = LoggerFactory.getLogger(PushFanout.class);

  private final WebhookTargets targets;
  private final SignatureVerifier verifier;
  private final Optional<String> globalSecret;
  private final RecentDeliveries recent;
  private final PullRequestTargets pullRequests;

  PushFanout(WebhookTargets targets, SignatureVerifier verifier, Optional<String> globalSecret,
      RecentDeliveries recent) {
    this(targets, PullRequestTargets.NOT_ENABLED, verifier, globalSecret, recent);
  }

  PushFanout(WebhookTargets targets, PullRequestTargets pullRequests, SignatureVerifier verifier,
      Optional<String> globalSecret, RecentDeliveries recent) {
    this.pullRequests = pullRequests;
    this.targets = targets;
    this.verifier = verifier;
    this.globalSecret = globalSecret;
    this.recent = recent;
  }

  Reply deliver(Delivery delivery, byte[] body) {
    switch (delivery.kind()) {
      case PING:
        return Reply.about(delivery, 200, 0, "ping received; nothing to trigger");
      case OTHER:
        return Reply.about(delivery, 200, 0, "event " + delivery.event() + " is not a push; nothing to trigger");
      case PULL_REQUEST:
        return pullRequest(delivery, body);
      default:
        return push(delivery, body);
    }
  }

  private Reply push(Delivery delivery, byte[] body) {
    Optional<Map<WebhookTarget, RepositoryUrl>> verified = verified(delivery, body);
    if (verified.isEmpty()) {
      return unverified(delivery);
    }
    Map<WebhookTarget, PushEvent> moved = moved(delivery, verified.get());
    if (moved.isEmpty()) {
      return Reply.about(delivery, 200, 0, "no source tracks this repository and ref");
    }
    if (duplicate(delivery)) {
      return Reply.about(delivery, 200, 0, "duplicate delivery; already handled");
    }
    int triggered = 0;
    for (Map.Entry<WebhookTarget, PushEvent> entry : moved.entrySet()) {
      try {
        entry.getKey().trigger(entry.getValue());
        triggered++;
      } catch (RuntimeException e) {
        LOG.warn("webhook {} delivery {}: triggering {} failed", delivery.forge().pathSegment(),
            delivery.deliveryId(), entry.getKey().name(), e);
      }
    }
    return Reply.about(delivery, 202, triggered, "triggered");
  }

  /**
   * A pull request is verified and deduplicated as a push is, by the sources of its base repository, and then
   * handed to {@link PullRequestTargets}; it triggers no source check. An action gitfn does not act on stops
   * after the checks.
   */
  private Reply pullRequest(Delivery delivery, byte[] body) {
    Optional<Map<WebhookTarget, RepositoryUrl>> verified = verified(delivery, body);
    if (verified.isEmpty()) {
      return unverified(delivery);
    }
    if (duplicate(delivery)) {
      return Reply.about(delivery, 200, 0, "duplicate delivery; already handled");
    }
    PullRequestChange change = delivery.pullRequest();
    if (change.action() == PullRequestChange.Action.OTHER) {
      return Reply.about(delivery, 200, 0, "pull-request action is not one gitfn acts on; nothing to do");
    }
    return Reply.about(delivery, 200, 0, pullRequests.changed(change, delivery.repositories(),
        List.copyOf(verified.get().keySet())));
  }

  /**
   * The sources of the delivery's repository that its proof verifies, with the address that found each; empty
   * when no secret for the repository verifies it. A map with no entry means only the controller-wide secret
   * did, for a repository whose sources all have secrets of their own, or that no source tracks.
   */
  private Optional<Map<WebhookTarget, RepositoryUrl>> verified(Delivery delivery, byte[] body) {
    if (delivery.proof() instanceof Proof.Absent) {
      return Optional.empty();
    }
    Map<WebhookTarget, RepositoryUrl> tracking = tracking(delivery);
    Verification verification = new Verification(delivery, body);
    boolean global = globalSecret.map(verification::by).orElse(false);
    Map<WebhookTarget, RepositoryUrl> verified = new LinkedHashMap<>();
    tracking.forEach((target, address) -> {
      if (target.secret().map(verification::by).orElse(global)) {
        verified.put(target, address);
      }
    });
    return verified.isEmpty() && !global ? Optional.empty() : Optional.of(verified);
  }

  /** Whether a delivery with this id was handled within the window; claims the id when it was not. */
  private boolean duplicate(Delivery delivery) {
    return delivery.deliveryId() != null
        && !recent.claim(delivery.forge().pathSegment() + "/" + delivery.deliveryId());
  }

  /** Every source of the repository, whatever its ref, with the address that found it. */
  private Map<WebhookTarget, RepositoryUrl> tracking(Delivery delivery) {
    Map<WebhookTarget, RepositoryUrl> found = new LinkedHashMap<>();
    Set<String> asked = new HashSet<>();
    for (RepositoryUrl repository : delivery.repositories()) {
      if (asked.size() == MAX_ADDRESSES) {
        break;
      }
      if (asked.add(repository.matchKey())) { // GitHub's clone, SSH and web URLs usually share one key; ask once.
        targets.tracking(repository).forEach(target -> found.putIfAbsent(target, repository));
      }
    }
    return found;
  }

  /** The verified sources whose ref a change of the push moved, each with the event of the first such change. */
  private static Map<WebhookTarget, PushEvent> moved(Delivery delivery, Map<WebhookTarget, RepositoryUrl> verified) {
    Map<WebhookTarget, PushEvent> moved = new LinkedHashMap<>();
    for (RefChange change : delivery.changes()) {
      verified.forEach((target, repository) -> {
        if (target.moves(change.ref())) {
          moved.putIfAbsent(target, new PushEvent(delivery.forge(), delivery.deliveryId(), delivery.event(),
              repository, change.ref(), change.after()));
        }
      });
    }
    return moved;
  }

  /** Whether secrets verify one delivery: each distinct secret is tried once, and only so many are tried. */
  private final class Verification {
    private final Delivery delivery;
    private final byte[] body;
    private final Map<String, Boolean> tried = new HashMap<>();

    Verification(Delivery delivery, byte[] body) {
      this.delivery = delivery;
      this.body = body;
    }

    boolean by(String secret) {
      Boolean known = tried.get(secret);
      if (known != null) {
        return known;
      }
      if (tried.size() == MAX_SECRETS) {
        LOG.warn("webhook {} delivery {}: its repository's sources have more than {} webhook secrets; the rest"
            + " are not tried", delivery.forge().pathSegment(), delivery.deliveryId(), MAX_SECRETS);
        return false;
      }
      boolean verifies = verifier.verifies(delivery.proof(), body, secret);
      tried.put(secret, verifies);
      return verifies;
    }
  }

  private static Reply unverified(Delivery delivery) {
    Proof proof = delivery.proof();
    String why = proof instanceof Proof.Absent absent
        ? absent.why()
        : (proof instanceof Proof.Token ? "the token does not match" : "the signature does not verify with")
            + " the webhook secret of a source for this repository, nor with the controller-wide secret";
    return Reply.about(delivery, 401, 0, why);
  }
}
