package io.gitfn.reconcile.repository;

import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.webhook.PullRequestChange;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pull-request webhooks that came for each FunctionRepository since its last pass: the newest change of each
 * pull request, at most {@value #PER_REPOSITORY} of them (the oldest go first). Only deliveries that verified against
 * a repository's own secret (or the controller's) reach it, so the number of keys is bounded by the repositories.
 *
 * <p>What a restart costs: changes not yet taken are lost; the next listing of the forge's open pull requests
 * (due at the repository's interval) or the next webhook brings them back.
 */
public final class PullRequestInbox {

  static final int PER_REPOSITORY = 1000;

  private final Map<SourceId, LinkedHashMap<Long, PullRequestChange>> changes = new ConcurrentHashMap<>();

  void put(SourceId id, PullRequestChange change) {
    changes.compute(id, (key, held) -> {
      LinkedHashMap<Long, PullRequestChange> map = held == null ? new LinkedHashMap<>() : held;
      map.remove(change.number()); // the newest goes last
      map.put(change.number(), change);
      if (map.size() > PER_REPOSITORY) {
        map.remove(map.keySet().iterator().next());
      }
      return map;
    });
  }

  /** The changes of {@code id} since the last call, oldest first; they are no longer held. */
  Map<Long, PullRequestChange> take(SourceId id) {
    LinkedHashMap<Long, PullRequestChange> taken = changes.remove(id);
    return taken == null ? Map.of() : taken;
  }

  void forget(SourceId id) {
    changes.remove(id);
  }
}
