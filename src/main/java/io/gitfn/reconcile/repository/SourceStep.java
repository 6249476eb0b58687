package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SECRET;

import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.FunctionRepositorySpec;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.RefSelector;
import io.gitfn.source.RepositoryUrl;
import io.gitfn.trigger.SourceState;
import io.gitfn.trigger.TrackedSource;
import java.util.Map;
import java.util.Optional;

/**
 * Guarantees that the watcher tracks the spec's URL, ref and credentials, and that the status shows the revision Git
 * holds and the webhook that last asked for a check. Stalls on a spec or Secret only a person can fix.
 *
 * <p>A controller that restarted has no answer from Git yet for a source fetched before; until the watcher's first
 * check answers (and wakes the repository), the pass stops here and the status stands as the last pass left it, so
 * a restart writes nothing.
 */
final class SourceStep implements Step<RepositoryState> {

  private final SourceBinding sources;

  SourceStep(SourceBinding sources) {
    this.sources = sources;
  }

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    FunctionRepository repository = state.resource();
    TrackedSource tracked = sources.track(source(repository, state));
    SourceState known = sources.state(tracked.id());
    state.source(tracked, known);
    if (known.revision().isEmpty() && known.error().isEmpty() && state.status().getLastFetchedRevision() != null) {
      return Result.stopFor(state.interval());
    }
    FetchedStep.report(state);
    return Result.next();
  }

  private TrackedSource source(FunctionRepository repository, RepositoryState state) throws StepFailure {
    FunctionRepositorySpec spec = repository.getSpec();
    String namespace = repository.getMetadata().getNamespace();
    RepositoryUrl url = sources.url("spec.url", spec.getUrl());
    GitCredentials credentials = new GitCredentials.None();
    if (spec.getSecretRef() != null) {
      String name = spec.getSecretRef().getName();
      Map<String, String> data = sources.secret(namespace, name, "spec.secretRef");
      credentials = sources.credentials(data.containsKey("key") ? "key" : "basic", data, "spec.secretRef " + name);
    }
    Optional<String> webhookSecret = Optional.empty();
    if (spec.getWebhook() != null && spec.getWebhook().getSecretRef() != null) {
      String name = spec.getWebhook().getSecretRef().getName();
      String token = sources.secret(namespace, name, "spec.webhook.secretRef").get("token");
      if (token == null || token.isBlank()) {
        throw StepFailure.stalled(INVALID_SECRET, "spec.webhook.secretRef " + name + " has no key `token`");
      }
      webhookSecret = Optional.of(token);
    }
    RefSelector ref = SourceBinding.ref("spec.ref", () -> RefSelector.of(spec.getRef()));
    return new TrackedSource(RepositoryState.idOf(repository), url, credentials, ref, state.interval(),
        webhookSecret);
  }
}
