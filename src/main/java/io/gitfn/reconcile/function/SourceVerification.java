package io.gitfn.reconcile.function;

import static io.gitfn.api.function.ConditionReason.INVALID_FUNCTION_SPEC;
import static io.gitfn.api.function.ConditionReason.SOURCE_UPDATE_FAILED;
import static io.gitfn.api.function.ConditionReason.SOURCE_VERIFICATION_FAILED;

import io.gitfn.api.Annotations;
import io.gitfn.api.VerificationStatus;
import io.gitfn.api.function.Function;
import io.gitfn.reconcile.RevisionSignatures;
import io.gitfn.reconcile.SourceBinding;
import io.gitfn.reconcile.StepFailure;
import io.gitfn.reconcile.VerifiedRevisions;
import io.gitfn.source.Revision;
import io.gitfn.source.verify.Verdict;
import io.gitfn.source.verify.VerifyMode;
import io.gitfn.trigger.TrackedSource;
import java.time.Duration;
import java.util.Optional;

/**
 * Guarantees, for a Git-sourced Function with {@code gitfn.io/verify-mode} or {@code gitfn.io/verify-secret}, that
 * no revision is planned unless its signatures verify with the keys of the Secret named, as a FunctionRepository's
 * {@code spec.verify} does ({@link RevisionSignatures}). A revision that verifies is recorded in
 * {@code status.verification}, where {@code Range} starts next time, in every process. One that does not stalls
 * with SourceVerificationFailed, naming the failure, the commit or tag and the key it found; with no plan, the later
 * steps leave the Deployment running what it runs. Secrets are not watched, so a refusal is looked at again an
 * interval later: a key added to the Secret lets the revision in.
 */
final class SourceVerification {

  private static final String SECRET_FIELD = "annotation " + Annotations.VERIFY_SECRET;

  private final RevisionSignatures signatures;
  private final Duration interval;

  /** @param interval how often a Function's Git source is checked without a webhook */
  SourceVerification(RevisionSignatures signatures, Duration interval) {
    this.signatures = signatures;
    this.interval = interval;
  }

  /** What the annotations ask: the mode, and the Secret of keys in the Function's namespace. */
  record Asked(VerifyMode mode, String secret) {}

  /**
   * What {@code fn}'s annotations ask; empty when it has neither. A key present but empty still asks, so that a
   * typo never turns verification off.
   *
   * @throws StepFailure.Stalled InvalidFunctionSpec, naming the annotation, for a mode with no Secret or an unknown
   *     mode
   */
  static Optional<Asked> asked(Function fn) throws StepFailure.Stalled {
    Optional<String> mode = Annotations.get(fn, Annotations.VERIFY_MODE).map(String::strip);
    Optional<String> secret = Annotations.get(fn, Annotations.VERIFY_SECRET).map(String::strip);
    if (mode.isEmpty() && secret.isEmpty()) {
      return Optional.empty();
    }
    if (secret.filter(s -> !s.isEmpty()).isEmpty()) {
      String asks = mode.isPresent() ? "annotation " + Annotations.VERIFY_MODE + " asks for signed revisions, but "
          : "";
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, asks + SECRET_FIELD + " names no Secret of keys to verify"
          + " revisions with");
    }
    try {
      return Optional.of(new Asked(VerifyMode.named(mode.orElse(VerifyMode.HEAD.name())), secret.get()));
    } catch (IllegalArgumentException e) {
      throw StepFailure.stalled(INVALID_FUNCTION_SPEC, "annotation " + Annotations.VERIFY_MODE + ": "
          + e.getMessage());
    }
  }

  /**
   * Verifies {@code revision} of {@code source} as {@code asked} says, and records it in {@code status.verification};
   * without {@code asked}, removes what an earlier verification recorded.
   *
   * @throws StepFailure stalled with SourceVerificationFailed when the revision does not verify; InvalidFunctionSpec
   *     when the Secret is missing or holds no usable key; SourceUpdateFailed when the mirror cannot be read
   */
  void verify(FunctionState state, Optional<Asked> asked, TrackedSource source, Revision revision)
      throws StepFailure {
    if (asked.isEmpty()) {
      state.status().setVerification(null);
      return;
    }
    VerifyMode mode = asked.get().mode();
    VerificationStatus last = state.status().getVerification();
    Verdict verdict = check(state.fn(), asked.get(), source, revision, last);
    if (!verdict.verified()) {
      String lastVerified = last == null || last.getRevision() == null ? ""
          : " (the last verified revision is " + last.getRevision() + ")";
      throw StepFailure.stalled(SOURCE_VERIFICATION_FAILED, verdict.failure().orElseThrow().name() + ": revision "
          + revision + " did not verify in mode " + mode + ": " + verdict.message() + "; it is not built, and the"
          + " running version stays" + lastVerified).lookingAgainAfter(interval);
    }
    state.status().setVerification(VerifiedRevisions.of(revision, mode, verdict.signer(), last, state.now()));
  }

  private Verdict check(Function fn, Asked asked, TrackedSource source, Revision revision, VerificationStatus last)
      throws StepFailure {
    try {
      return signatures.verify(new RevisionSignatures.Request(fn.getMetadata().getNamespace(), asked.secret(),
          SECRET_FIELD, asked.mode(), source, revision, last)).verdict();
    } catch (StepFailure.Stalled e) {
      // In Kyma's words; a Secret made or mended later is found an interval later, since Secrets are not watched.
      throw SourceBinding.aboutSecret(e)
          ? StepFailure.stalled(INVALID_FUNCTION_SPEC, e.getMessage()).lookingAgainAfter(interval)
          : StepFailure.stalled(SOURCE_UPDATE_FAILED, e.getMessage());
    } catch (StepFailure.Retry e) {
      throw StepFailure.retry(SOURCE_UPDATE_FAILED, e.getMessage(), e.getCause());
    }
  }
}
