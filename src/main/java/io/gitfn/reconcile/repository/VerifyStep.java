package io.gitfn.reconcile.repository;

import static io.gitfn.api.repository.RepositoryConditionReason.INVALID_SPEC;
import static io.gitfn.api.repository.RepositoryConditionReason.SUCCEEDED;
import static io.gitfn.api.repository.RepositoryConditionType.SOURCE_VERIFIED;

import io.gitfn.api.VerificationStatus;
import io.gitfn.api.repository.FunctionRepository;
import io.gitfn.api.repository.Verify;
import io.gitfn.reconcile.Result;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.Step;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.VerifiedRevisions;
import io.gitfn.source.Revision;
import io.gitfn.source.verify.MirrorSignatures;
import io.gitfn.source.verify.Verdict;
import io.gitfn.source.verify.VerifyMode;
import java.util.Objects;

/**
 * Guarantees that no revision is applied unless its signatures verify with the keys {@code spec.verify} names.
 * A revision that verifies is recorded in {@code status.verification} (where {@code Range} starts next time, in
 * every process) and {@code SourceVerified} is True. One that does not is fetched but not applied: the pass stalls
 * with the failure as its reason, naming the commit or tag and the key it found, the forge hears of it, and the
 * last applied revision keeps running. Without {@code spec.verify} the step removes {@code SourceVerified}.
 */
final class VerifyStep implements Step<RepositoryState> {

  private final RevisionSignatures signatures;

  VerifyStep(RevisionSignatures signatures) {
    this.signatures = signatures;
  }

  @Override
  public Result run(RepositoryState state) throws StepFailure {
    FunctionRepository repository = state.resource();
    Verify verify = repository.getSpec().getVerify();
    if (verify == null) {
      state.draft().remove(SOURCE_VERIFIED);
      return Result.next();
    }
    Revision revision = state.fetched();
    state.attempted(revision);
    state.status().setLastAttemptedRevision(revision.toString());
    VerifyMode mode = mode(verify.getMode());
    VerificationStatus last = state.status().getVerification();
    MirrorSignatures.Checked outcome = signatures.verify(new RevisionSignatures.Request(
        repository.getMetadata().getNamespace(), verify.getSecretRef() == null ? null
            : verify.getSecretRef().getName(), "spec.verify.secretRef", mode, state.tracked(), revision, last));
    state.commit(outcome.commit());
    Verdict verdict = outcome.verdict();
    if (!verdict.verified()) {
      String reason = verdict.failure().orElseThrow().name();
      String stays = state.whatStays();
      String message = "revision " + revision + " was not applied: its signatures did not verify in mode " + mode
          + ": " + verdict.message() + "; " + stays;
      state.draft().set(SOURCE_VERIFIED, "False", reason, message);
      throw StepFailure.stalled(reason, message);
    }
    VerificationStatus verified = VerifiedRevisions.of(revision, mode, verdict.signer(), last, state.now());
    state.status().setVerification(verified);
    state.signature(verified);
    state.draft().set(SOURCE_VERIFIED, "True", SUCCEEDED, "verified " + revision + " in mode " + mode + ": "
        + verdict.message());
    return Result.next();
  }

  // The CRD allows only these; an API server without the CRD's validation could hand over anything.
  private static VerifyMode mode(String text) throws StepFailure.Stalled {
    try {
      return VerifyMode.named(Objects.requireNonNullElse(text, VerifyMode.HEAD.name()));
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_SPEC, "spec.verify.mode: " + e.getMessage());
    }
  }
}
