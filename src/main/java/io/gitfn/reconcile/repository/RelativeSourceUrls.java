package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_REVISION;

import io.gitfn.api.function.AuthType;
import io.gitfn.api.function.Function;
import io.gitfn.api.function.RepositoryAuth;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.manifest.ManifestError;
import io.gitfn.manifest.RelativeSources;
import io.gitfn.notify.CommitState;
import io.gitfn.reconcile.ForgeReports.Verdict;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.source.GitCredentials;
import io.gitfn.source.Revision;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Guarantees that the Functions a revision applies carry absolute Git URLs: one written relative to the infra
 * repository ({@code ./}, {@code ../other.git}) is resolved against the FunctionRepository's {@code spec.url}, and,
 * when it names no {@code auth}, reads with the repository's {@code secretRef} (Kyma's format on both sides, so the
 * same Secret serves). The Function controller then sees an ordinary Git-sourced Function. One that cannot be
 * resolved stalls the pass with {@code InvalidRevision}, naming its file and field, and nothing is applied.
 */
final class RelativeSourceUrls {

  private RelativeSourceUrls() {
  }

  static void resolve(RepositoryState state, Revision revision, List<Function> desired) throws StepFailure.Stalled {
    FunctionRepository repository = state.resource();
    RelativeSources.Base base = RelativeSources.Base.of(repository.getSpec().getUrl().strip(),
        auth(repository, state.tracked().credentials()), repository.getMetadata().getNamespace());
    List<ManifestError> errors = RelativeSources.resolve(desired, base);
    if (!errors.isEmpty()) {
      String listed = errors.stream().map(ManifestError::toString).collect(Collectors.joining("; "));
      state.verdict(new Verdict(revision, CommitState.FAILURE, INVALID_REVISION, listed + " (nothing of " + revision
          + " was applied)"));
      throw StepFailure.stalled(INVALID_REVISION, "revision " + revision + " was not applied: " + listed);
    }
  }

  /** The repository's Secret as a Function's {@code auth}: its type is what SourceStep read the Secret as. */
  private static RepositoryAuth auth(FunctionRepository repository, GitCredentials credentials) {
    if (repository.getSpec().getSecretRef() == null || credentials instanceof GitCredentials.None) {
      return null;
    }
    RepositoryAuth auth = new RepositoryAuth();
    auth.setType(credentials instanceof GitCredentials.SshKey ? AuthType.KEY : AuthType.BASIC);
    auth.setSecretName(repository.getSpec().getSecretRef().getName());
    return auth;
  }
}
