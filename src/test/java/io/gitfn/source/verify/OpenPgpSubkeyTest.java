package io.gitfn.source.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A signing subkey verifies for its primary key's owner, and carries its own expiry and its primary's revocation. */
class OpenPgpSubkeyTest {

  @TempDir Path work;

  private static Verdict verifyHead(PgpTestKey signer, PgpTestKey inSecret, Clock clock, Path work)
      throws Exception {
    VerificationKeys keys = VerificationKeys.fromSecretData(Map.of("carol.asc", inSecret.armoredPublicKey()));
    GitTool git = GitTool.init(work.resolve("repo"));
    ObjectId head = ObjectId.fromString(TestSigner.openPgp(signer).commit(git, "signed by a subkey"));
    try (Repository repository = git.open()) {
      return new RevisionVerifier(keys, VerificationKeys.none(), clock).head(repository, head);
    }
  }

  @Test
  void aSigningSubkeyVerifiesAndNamesThePrimaryKeysOwner() throws Exception {
    PgpTestKey carol = PgpTestKey.withSigningSubkey("Carol <carol@gitfn.invalid>", null);
    VerificationKeys keys = VerificationKeys.fromSecretData(Map.of("carol.asc", carol.armoredPublicKey()));

    Verdict verdict = verifyHead(carol, carol, Clock.systemUTC(), work);

    assertThat(keys.openPgp()).hasSize(2);
    assertThat(keys.openPgp().get(1).fingerprint()).isEqualTo(carol.fingerprint());
    assertThat(keys.openPgp().get(1).primaryFingerprint()).isEqualTo(keys.openPgp().get(0).fingerprint());
    assertThat(verdict.verified()).as(verdict.message()).isTrue();
    assertThat(verdict.signer().orElseThrow().fingerprint()).isEqualTo(carol.fingerprint());
    assertThat(verdict.signer().orElseThrow().signer()).isEqualTo("Carol <carol@gitfn.invalid>");
  }

  @Test
  void revokingThePrimaryKeyRevokesItsSubkeysSignatures() throws Exception {
    PgpTestKey carol = PgpTestKey.withSigningSubkey("Carol <carol@gitfn.invalid>", null);

    Verdict verdict = verifyHead(carol, carol.revoked(), Clock.systemUTC(), work);

    assertThat(verdict.failure()).contains(Failure.RevokedKey);
  }

  @Test
  void anExpiredSubkeyVouchesForNothingAfterItsExpiry() throws Exception {
    PgpTestKey carol = PgpTestKey.withSigningSubkey("Carol <carol@gitfn.invalid>", Duration.ofDays(1));

    Verdict today = verifyHead(carol, carol, Clock.systemUTC(), work.resolve("today"));
    Verdict inTwoDays = verifyHead(carol, carol, Clock.offset(Clock.systemUTC(), Duration.ofDays(2)),
        work.resolve("later"));

    assertThat(today.verified()).as(today.message()).isTrue();
    assertThat(inTwoDays.failure()).contains(Failure.ExpiredKey);
    assertThat(inTwoDays.message()).contains("which expired at");
  }
}
