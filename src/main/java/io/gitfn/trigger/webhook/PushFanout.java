package io.gitfn.trigger.webhook;

import io.gitfn.source.RepositoryUrl;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a read delivery does: finds the sources that track its repository and refs, keeps those whose
 * secret verifies the delivery, and triggers each of them once. Pure apart from the targets it calls.
 *
 * <p>A source with a secret of its own is verified by that secret only. A source without one is verified by the
 * controller-wide secret, when there is one. An unsigned push is always refused; a signed push that no source
 * tracks is answered 200 with nothing triggered, so that a forge's repository-wide webhook does not show a
 * failure for every push to an untracked branch.
 */
final class PushFanout {

  private static final Logger LOG = LoggerFactory.getLogger(PushFanout.class);

  private final WebhookTargets targets;
  private final SignatureVerifier verifier;
  private final Optional<String> globalSecret;
  private final RecentDeliveries recent;

  PushFanout(WebhookTargets targets, SignatureVerifier verifier, Optional<String> globalSecret,
      RecentDeliveries recent) {
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
      default:
        return push(delivery, body);
    }
  }

  private Reply push(Delivery delivery, byte[] body) {
    // An unsigned push is refused whatever it names, so that it cannot probe which repositories are tracked.
    if (delivery.proof() instanceof Proof.Absent) {
      return unverified(delivery);
    }
    Map<WebhookTarget, PushEvent> candidates = candidates(delivery);
    boolean global = globalSecret.isPresent() && verifier.verifies(delivery.proof(), body, globalSecret.get());
    if (candidates.isEmpty()) {
      // With a controller-wide secret, an unverified sender does not even learn which repositories are tracked.
      if (globalSecret.isPresent() && !global) {
        return unverified(delivery);
      }
      return Reply.about(delivery, 200, 0, "no source tracks this repository and ref");
    }
    Map<WebhookTarget, PushEvent> verified = new LinkedHashMap<>();
    candidates.forEach((target, event) -> {
      boolean ok = target.secret().map(secret -> verifier.verifies(delivery.proof(), body, secret)).orElse(global);
      if (ok) {
        verified.put(target, event);
      }
    });
    if (verified.isEmpty()) {
      return unverified(delivery);
    }
    if (delivery.deliveryId() != null && !recent.claim(delivery.forge().pathSegment() + "/" + delivery.deliveryId())) {
      return Reply.about(delivery, 200, 0, "duplicate delivery; already handled");
    }
    int triggered = 0;
    for (Map.Entry<WebhookTarget, PushEvent> entry : verified.entrySet()) {
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
   * Every target for every (repository address, ref) the delivery names, each once, with the event for the
   * first address and ref that matched it.
   */
  private Map<WebhookTarget, PushEvent> candidates(Delivery delivery) {
    Map<WebhookTarget, PushEvent> found = new LinkedHashMap<>();
    for (RefChange change : delivery.changes()) {
      Set<String> asked = new HashSet<>();
      for (RepositoryUrl repository : delivery.repositories()) {
        if (!asked.add(repository.matchKey())) {
          continue; // GitHub's clone, SSH and web URLs usually share one key; ask once.
        }
        for (WebhookTarget target : targets.matching(repository, change.ref())) {
          found.computeIfAbsent(target, t -> new PushEvent(delivery.forge(), delivery.deliveryId(),
              delivery.event(), repository, change.ref(), change.after()));
        }
      }
    }
    return found;
  }

  private static Reply unverified(Delivery delivery) {
    Proof proof = delivery.proof();
    String why = proof instanceof Proof.Absent absent
        ? absent.why()
        : (proof instanceof Proof.Token ? "the token does not match" : "the signature does not verify with")
            + " the webhook secret of any source for this repository and ref";
    return Reply.about(delivery, 401, 0, why);
  }
}
