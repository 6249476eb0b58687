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
import io.gitfn.source.Revision;
import io.gitfn.source.verify.MirrorSignatures;
import io.gitfn.source.verify.SignatureCheck;
import io.gitfn.source.verify.Verdict;
import io.gitfn.source.verify.VerifyMode;
import java.util.Objects;
import java.util.Optional;

/**
 * Guarantees that no revision is applied unless its signatures verify with the keys {@code spec.verify} names.
 * A revision that verifies is recorded in {@code status.verification} (where {@code Range} starts next time, in
 * every process) and {@code SourceVerified} is True. One that does not is fetched but not applied: the pass stalls
 * with the failure as its reason, naming the commit or tag and the key it found, the forge hears of it, and the
 * last applied revision keeps running. Without {@code spec.verify} the step removes {@code SourceVerified}.
 */
final class VerifyStep implements Step<RepositoryState> {

  private static final int SIGNER = 100;

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
            : verify.getSecretRef().getName(), "spec.verify.secretRef", mode, state.tracked(), revision,
        mode == VerifyMode.Range ? lastVerifiedCommit(last) : Optional.empty()));
    state.commit(outcome.commit());
    Verdict verdict = outcome.verdict();
    if (!verdict.verified()) {
      String reason = verdict.failure().orElseThrow().name();
      String stays = Optional.ofNullable(state.status().getLastAppliedRevision()).map(r -> r + " keeps running")
          .orElse("nothing applied yet");
      String message = "revision " + revision + " was not applied: its signatures did not verify in mode " + mode
          + ": " + verdict.message() + "; " + stays;
      state.draft().set(SOURCE_VERIFIED, "False", reason, message);
      throw StepFailure.stalled(reason, message);
    }
    VerificationStatus verified = verified(state, revision, mode, verdict.signer(), last);
    state.status().setVerification(verified);
    state.signature(verified);
    state.draft().set(SOURCE_VERIFIED, "True", SUCCEEDED, "verified " + revision + " in mode " + mode + ": "
        + verdict.message());
    return Result.next();
  }

  // The CRD allows only these; an API server without the CRD's validation could hand over anything.
  private static VerifyMode mode(String text) throws StepFailure.Stalled {
    try {
      return VerifyMode.valueOf(Objects.requireNonNullElse(text, VerifyMode.HEAD.name()));
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_SPEC, "spec.verify.mode: `" + text + "` is not HEAD, Tag, TagAndHEAD or"
          + " Range");
    }
  }

  // The commit of the last verified revision, if it is one gitfn wrote: Range starts after it.
  private static Optional<String> lastVerifiedCommit(VerificationStatus last) {
    if (last == null || last.getRevision() == null) {
      return Optional.empty();
    }
    String text = last.getRevision();
    int at = text.lastIndexOf("@sha1:");
    String sha = at < 0 ? "" : text.substring(at + "@sha1:".length());
    return sha.matches("[0-9a-f]{40}") ? Optional.of(sha) : Optional.empty();
  }

  /**
   * What status records: this revision, with who signed it. {@code Range} with no new commit checks no signature,
   * so the signer stays the one recorded for the same head.
   */
  private static VerificationStatus verified(RepositoryState state, Revision revision, VerifyMode mode,
      Optional<SignatureCheck> signer, VerificationStatus last) {
    VerificationStatus status = new VerificationStatus();
    status.setRevision(revision.toString());
    status.setMode(mode.name());
    if (signer.isPresent()) {
      status.setKeyFingerprint(signer.get().fingerprint());
      String who = signer.get().signer();
      status.setSigner(who.length() > SIGNER ? who.substring(0, SIGNER) : who);
    } else if (last != null && sameCommit(last.getRevision(), revision)) {
      status.setKeyFingerprint(last.getKeyFingerprint());
      status.setSigner(last.getSigner());
    }
    boolean unchanged = last != null && Objects.equals(last.getRevision(), status.getRevision())
        && Objects.equals(last.getMode(), status.getMode())
        && Objects.equals(last.getKeyFingerprint(), status.getKeyFingerprint());
    // A periodic pass that verifies the same revision again writes nothing new: a repository at rest stays unwritten.
    status.setTime(unchanged && last.getTime() != null ? last.getTime() : state.now().toString());
    return status;
  }

  private static boolean sameCommit(String recorded, Revision revision) {
    return recorded != null && recorded.endsWith("@sha1:" + revision.sha());
  }
}
