package io.gitfn.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.api.VerificationStatus;
import io.gitfn.source.Revision;
import io.gitfn.source.verify.SignatureCheck;
import io.gitfn.source.verify.VerifyMode;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What {@code status.verification} records, for a FunctionRepository and a Git-sourced Function alike: the revision
 * and its signer; the same signer while {@code Range} finds no new commit; the first time a revision verified; and
 * the commit {@code Range} starts after.
 */
class VerifiedRevisionsTest {

  private static final String SHA = "a".repeat(40);
  private static final Revision REVISION = new Revision("main", SHA);
  private static final Instant EARLIER = Instant.parse("2026-11-26T12:00:00Z");
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final Optional<SignatureCheck> ALICE = Optional.of(new SignatureCheck(SHA, "commit",
      Optional.empty(), "SHA256:alice", "alice@example.com", "good signature"));

  @Test
  void aVerifiedRevisionRecordsItsModeItsSignersKeyAndTheTime() {
    VerificationStatus recorded = VerifiedRevisions.of(REVISION, VerifyMode.HEAD, ALICE, null, NOW);

    assertThat(recorded.getRevision()).isEqualTo("main@sha1:" + SHA);
    assertThat(recorded.getMode()).isEqualTo("HEAD");
    assertThat(recorded.getKeyFingerprint()).isEqualTo("SHA256:alice");
    assertThat(recorded.getSigner()).isEqualTo("alice@example.com");
    assertThat(recorded.getTime()).isEqualTo(NOW.toString());
  }

  @Test
  void theSameRevisionVerifiedAgainKeepsItsTimeSoAResourceAtRestIsNotWritten() {
    VerificationStatus first = VerifiedRevisions.of(REVISION, VerifyMode.HEAD, ALICE, null, EARLIER);

    assertThat(VerifiedRevisions.of(REVISION, VerifyMode.HEAD, ALICE, first, NOW).getTime())
        .isEqualTo(EARLIER.toString());
    assertThat(VerifiedRevisions.of(REVISION, VerifyMode.Range, ALICE, first, NOW).getTime())
        .as("another mode is news").isEqualTo(NOW.toString());
  }

  @Test
  void rangeWithNoNewCommitKeepsTheSignerRecordedForThatCommitAndNoOther() {
    VerificationStatus first = VerifiedRevisions.of(REVISION, VerifyMode.Range, ALICE, null, EARLIER);

    VerificationStatus again = VerifiedRevisions.of(REVISION, VerifyMode.Range, Optional.empty(), first, NOW);
    VerificationStatus elsewhere = VerifiedRevisions.of(new Revision("main", "b".repeat(40)), VerifyMode.Range,
        Optional.empty(), first, NOW);

    assertThat(again.getKeyFingerprint()).isEqualTo("SHA256:alice");
    assertThat(again.getTime()).isEqualTo(EARLIER.toString());
    assertThat(elsewhere.getKeyFingerprint()).isNull();
    assertThat(elsewhere.getSigner()).isNull();
  }

  @Test
  void aLongSignerIsCutAtOneHundredCharacters() {
    Optional<SignatureCheck> verbose = Optional.of(new SignatureCheck(SHA, "commit", Optional.empty(), "SHA256:x",
        "x".repeat(300), ""));

    assertThat(VerifiedRevisions.of(REVISION, VerifyMode.HEAD, verbose, null, NOW).getSigner()).hasSize(100);
  }

  @Test
  void rangeStartsAfterTheCommitOfARevisionGitfnRecordedAndNowhereElse() {
    assertThat(VerifiedRevisions.rangeStart(VerifiedRevisions.of(REVISION, VerifyMode.HEAD, ALICE, null, NOW)))
        .contains(SHA);
    assertThat(VerifiedRevisions.rangeStart(null)).isEmpty();
    VerificationStatus edited = new VerificationStatus();
    edited.setRevision("main@sha1:HEAD~3");
    assertThat(VerifiedRevisions.rangeStart(edited)).as("a hand-edited status starts nothing").isEmpty();
  }
}
