package io.gitfn.reconcile.repository;

import io.gitfn.api.repository.WebhookReceipt;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;
import io.gitfn.trigger.SourceState;

/**
 * The status shows the revision Git holds and the webhook delivery that last asked for a check, as the watcher knows
 * them.
 */
final class FetchedStep implements Step<RepositoryState> {

  @Override
  public Result run(RepositoryState state) {
    report(state);
    return Result.next();
  }

  static void report(RepositoryState state) {
    SourceState known = state.source();
    known.revision().ifPresent(r -> state.status().setLastFetchedRevision(r.toString()));
    known.lastDelivery().ifPresent(d -> {
      WebhookReceipt receipt = new WebhookReceipt();
      receipt.setForge(d.forge());
      receipt.setDeliveryId(d.deliveryId());
      receipt.setTime(d.at().toString());
      known.revision().ifPresent(r -> receipt.setRevision(r.toString()));
      state.status().setLastWebhook(receipt);
    });
  }
}
