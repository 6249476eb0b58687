package io.gitfn.reconcile.repository;

import io.gitfn.api.repository.CommitStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Notification;
import io.gitfn.reconcile.ForgeReports;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.Step;

/**
 * Tells the forge what this pass found about its revision, when {@code spec.commitStatus} asks, and posts it to
 * {@code spec.notification}'s URL; the reports go out once the pass's status is written, and {@code status} shows
 * how the forge took the newest. Runs whatever the steps before it found; nothing of it fails the pass.
 */
final class ForgeStep implements Step<RepositoryState> {

  private final ForgeReports forge;

  ForgeStep(ForgeReports forge) {
    this.forge = forge;
  }

  @Override
  public Result run(RepositoryState state) {
    FunctionRepository repository = state.resource();
    CommitStatus spec = repository.getSpec().getCommitStatus();
    Notification notification = repository.getSpec().getNotification();
    String namespace = repository.getMetadata().getNamespace();
    String name = repository.getMetadata().getName();
    if (spec == null) {
      forge.forgetStatus(RepositoryState.KIND, namespace, name);
      state.status().setCommitStatus(null);
    } else {
      ForgeReports.Prepared report = forge.commitStatus(new ForgeReports.Target(RepositoryState.KIND, namespace, name,
          repository.getSpec().getUrl(), spec.getSecretRef().getName(), "spec.commitStatus.secretRef",
          spec.getForge(), spec.getApiURL(), state.status().getPreviewURL()), state.verdict(),
          state.status().getCommitStatus());
      report.shown().ifPresent(shown -> state.status().setCommitStatus(shown));
      report.send().ifPresent(state::afterWrite);
    }
    if (notification == null) {
      forge.forgetNotification(RepositoryState.KIND, namespace, name);
      state.status().setNotification(null);
    } else {
      ForgeReports.Prepared report = forge.notification(new ForgeReports.Endpoint(RepositoryState.KIND, namespace,
          name, notification.getUrl(), notification.getSecretRef().getName(), "spec.notification.secretRef"),
          state.verdict(), state.status().getNotification());
      report.shown().ifPresent(shown -> state.status().setNotification(shown));
      report.send().ifPresent(state::afterWrite);
    }
    return Result.next();
  }
}
