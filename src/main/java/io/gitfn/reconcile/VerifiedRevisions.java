package io.gitfn.reconcile;

import io.gitfn.api.VerificationStatus;
import io.gitfn.source.Revision;
import io.gitfn.source.verify.SignatureCheck;
import io.gitfn.source.verify.VerifyMode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code status.verification} says of the last revision whose signatures verified, and where {@code Range}
 * starts from it: one rule for a FunctionRepository's {@code spec.verify} and a Git-sourced Function's annotations.
 */
public final class VerifiedRevisions {

  private static final int SIGNER = 100;
  private static final String SHA = "@sha1:";

  private VerifiedRevisions() {}

  /** The commit of the last verified revision, if it is one gitfn wrote: {@code Range} starts after it. */
  static Optional<String> rangeStart(VerificationStatus last) {
    if (last == null || last.getRevision() == null) {
      return Optional.empty();
    }
    String text = last.getRevision();
    int at = text.lastIndexOf(SHA);
    String sha = at < 0 ? "" : text.substring(at + SHA.length());
    return sha.matches("[0-9a-f]{40}") ? Optional.of(sha) : Optional.empty();
  }

  /**
   * What status records of {@code revision}, verified in {@code mode}: the revision, with who signed it.
   * {@code Range} with no new commit checks no signature, so the signer stays the one recorded for the same commit.
   * Verifying the same revision again keeps {@code last}'s time, so a resource at rest is not written again.
   *
   * @param signer the signature that vouches for the revision ({@code Verdict.signer()})
   * @param last what status recorded before, or null
   */
  public static VerificationStatus of(Revision revision, VerifyMode mode, Optional<SignatureCheck> signer,
      VerificationStatus last, Instant now) {
    VerificationStatus status = new VerificationStatus();
    status.setRevision(revision.toString());
    status.setMode(mode.name());
    if (signer.isPresent()) {
      status.setKeyFingerprint(signer.get().fingerprint());
      String who = signer.get().signer();
      status.setSigner(who.length() > SIGNER ? who.substring(0, SIGNER) : who);
    } else if (last != null && last.getRevision() != null && last.getRevision().endsWith(SHA + revision.sha())) {
      status.setKeyFingerprint(last.getKeyFingerprint());
      status.setSigner(last.getSigner());
    }
    boolean unchanged = last != null && Objects.equals(last.getRevision(), status.getRevision())
        && Objects.equals(last.getMode(), status.getMode())
        && Objects.equals(last.getKeyFingerprint(), status.getKeyFingerprint());
    status.setTime(unchanged && last.getTime() != null ? last.getTime() : now.toString());
    return status;
  }
}
