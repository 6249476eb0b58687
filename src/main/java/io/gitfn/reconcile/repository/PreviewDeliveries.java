package io.gitfn.reconcile.repository;

import io.gitfn.reconcile.WakeUps;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.trigger.SourceId;
import io.gitfn.trigger.webhook.PullRequestChange;
import io.gitfn.trigger.webhook.PullRequestTargets;
import io.gitfn.trigger.webhook.WebhookTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands a verified pull-request delivery to the FunctionRepositories whose secret verified it: each gets the change
 * in its {@link PullRequestInbox} and is woken; its pass decides whether it previews the pull request.
 */
public final class PreviewDeliveries implements PullRequestTargets {

  private final PullRequestInbox inbox;
  private final WakeUps<FunctionRepository> wakeUps;

  public PreviewDeliveries(PullRequestInbox inbox, WakeUps<FunctionRepository> wakeUps) {
    this.inbox = inbox;
    this.wakeUps = wakeUps;
  }

  @Override
  public String changed(PullRequestChange change, List<RepositoryUrl> baseRepository,
      List<WebhookTarget> verifiedBy) {
    List<String> told = new ArrayList<>();
    for (WebhookTarget target : verifiedBy) {
      SourceId id = SourceId.parse(target.name()).orElse(null);
      if (id == null || !RepositoryState.KIND.equals(id.kind())) {
        continue; // a Git-sourced Function: pull requests make no preview of one
      }
      inbox.put(id, change);
      wakeUps.wake(id.namespace(), id.name());
      told.add(id.namespace() + "/" + id.name());
    }
    return told.isEmpty() ? "pull request #" + change.number() + ": no FunctionRepository of this repository verified"
        + " it, nothing to do" : "pull request #" + change.number() + " " + change.action().name().toLowerCase()
        + " handed to " + String.join(", ", told);
  }
}
