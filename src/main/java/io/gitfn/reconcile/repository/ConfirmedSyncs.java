package io.gitfn.reconcile.repository;

import io.gitfn.trigger.SourceId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this process last ran a full sync of a repository that found nothing to change. Such a sync leaves
 * {@code status.lastSync} as it was, so that a repository at rest is never written to; the next periodic full sync
 * is then due a resync interval after the later of the two.
 *
 * <p>What a restart costs: a repository whose {@code status.lastSync} is older than its resync interval gets one full
 * sync on the new controller's first pass (Git read from the mirror, its Secret, a list and a compare; no fetch, and
 * no write when nothing drifted), which the controller before it would have run at its next periodic sync anyway.
 */
public final class ConfirmedSyncs {

  private final Map<SourceId, Instant> confirmed = new ConcurrentHashMap<>();

  void confirmed(SourceId repository, Instant at) {
    confirmed.put(repository, at);
  }

  Optional<Instant> lastConfirmed(SourceId repository) {
    return Optional.ofNullable(confirmed.get(repository));
  }

  void forget(SourceId repository) {
    confirmed.remove(repository);
  }
}
