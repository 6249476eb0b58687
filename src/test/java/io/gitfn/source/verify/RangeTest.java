package io.gitfn.source.verify;

import static io.gitfn.source.verify.SignedRevisionsTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Range}: every new commit, oldest first, bounded, and quick enough for a long push. */
class RangeTest {

  @TempDir static Path keysDir;
  static Path alice;
  static PgpTestKey bob;
  static VerificationKeys keys;

  @TempDir Path work;

  @BeforeAll
  static void keys() throws Exception {
    alice = GitTool.sshKey(keysDir, "alice");
    bob = PgpTestKey.generate("Bob <bob@gitfn.invalid>");
    keys = VerificationKeys.fromSecretData(Map.of(
        "alice.sshpub", bytes(GitTool.publicLine(alice)), "bob.asc", bob.armoredPublicKey()));
  }

  private static RevisionVerifier verifier() {
    return new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC());
  }

  private static ObjectId id(String sha) {
    return ObjectId.fromString(sha);
  }

  @Test
  void everyNewCommitIsCheckedOldestFirstAndTheFirstBadOneIsNamed() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner alicesSigner = TestSigner.ssh(alice);
    String lastVerified = alicesSigner.commit(git, "verified before");
    String firstUnsigned = git.commit("unsigned 1", null);
    git.commit("unsigned 2", null);
    String head = alicesSigner.commit(git, "signed head");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().range(repository, id(lastVerified), id(head));

      assertThat(verdict.failure()).contains(Failure.UnsignedCommit);
      assertThat(verdict.refused().orElseThrow().object()).isEqualTo(firstUnsigned);
      assertThat(verdict.checks()).hasSize(1);
      assertThat(verdict.message())
          .isEqualTo("commit " + firstUnsigned + " (UnsignedCommit): the commit is not signed");
    }
  }

  @Test
  void theFirstVerificationHasNoRangeAndChecksTheHeadAlone() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    git.commit("history from before signing", null);
    String head = TestSigner.ssh(alice).commit(git, "signed");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().range(repository, null, id(head));

      assertThat(verdict.verified()).isTrue();
      assertThat(verdict.checks()).extracting(SignatureCheck::object).containsExactly(head);
    }
  }

  @Test
  void anUnchangedHeadHasNothingNewToVerify() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    String head = TestSigner.ssh(alice).commit(git, "signed");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().range(repository, id(head), id(head));

      assertThat(verdict.verified()).isTrue();
      assertThat(verdict.checks()).isEmpty();
      assertThat(verdict.signer()).isEmpty();
      assertThat(verdict.message()).isEqualTo("no new commit to verify");
    }
  }

  @Test
  void aForcePushChecksOnlyWhatTheOldHeadDoesNotReach() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner alicesSigner = TestSigner.ssh(alice);
    String base = alicesSigner.commit(git, "base");
    String lastVerified = git.commit("unsigned, but verified under an earlier Secret", null);
    git.git("reset", "-q", "--hard", base);
    String head = alicesSigner.commit(git, "rewritten");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().range(repository, id(lastVerified), id(head));

      assertThat(verdict.verified()).as(verdict.message()).isTrue();
      assertThat(verdict.checks()).extracting(SignatureCheck::object).containsExactly(head);
    }
  }

  @Test
  void aLastVerifiedRevisionTheRepositoryNoLongerHoldsTrustsNothing() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    git.commit("unsigned, pushed over the verified history", null);
    String head = TestSigner.ssh(alice).commit(git, "signed head");
    ObjectId gone = id("0123456789abcdef0123456789abcdef01234567");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().range(repository, gone, id(head));

      assertThat(verdict.failure()).contains(Failure.LastVerifiedMissing);
      assertThat(verdict.message()).contains(gone.name()).contains("verify in mode HEAD once");
    }
  }

  @Test
  void moreNewCommitsThanTheBoundAreRefusedWhole() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    String lastVerified = git.commit("verified", null);
    try (Repository repository = git.open()) {
      ObjectId three = PgpSigning.chain(repository, id(lastVerified), 3, bob);
      ObjectId four = PgpSigning.chain(repository, three, 1, bob);
      RevisionVerifier bounded = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC(), 3);

      Verdict atTheBound = bounded.range(repository, id(lastVerified), three);
      Verdict overIt = bounded.range(repository, id(lastVerified), four);

      assertThat(atTheBound.verified()).isTrue();
      assertThat(atTheBound.checks()).hasSize(3);
      assertThat(overIt.failure()).contains(Failure.TooManyCommits);
      assertThat(overIt.refused().orElseThrow().object()).isEqualTo(four.name());
      assertThat(overIt.message()).contains("more than 3 commits since the last verified revision " + lastVerified);
    }
  }

  @Test
  void aThousandCommitsVerifyQuickly() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    String lastVerified = git.commit("verified", null);
    try (Repository repository = git.open()) {
      ObjectId pgpHead = PgpSigning.chain(repository, id(lastVerified), 1000, bob);
      ObjectId sshHead = SshTestSigner.load(alice).chain(repository, pgpHead, 1000);
      Verdict pgp = null;
      Verdict ssh = null;
      // Twice each: the first run pays for class loading and the JIT, which a running controller has paid already.
      long[] pgpMillis = new long[2];
      long[] sshMillis = new long[2];
      for (int run = 0; run < 2; run++) {
        long start = System.nanoTime();
        pgp = verifier().range(repository, id(lastVerified), pgpHead);
        pgpMillis[run] = (System.nanoTime() - start) / 1_000_000;
        start = System.nanoTime();
        ssh = verifier().range(repository, pgpHead, sshHead);
        sshMillis[run] = (System.nanoTime() - start) / 1_000_000;
      }
      System.out.printf("Range verification of 1000 commits: OpenPGP (Ed25519) %d ms, then %d ms; SSH (ed25519)"
          + " %d ms, then %d ms%n", pgpMillis[0], pgpMillis[1], sshMillis[0], sshMillis[1]);

      assertThat(pgp.verified()).as(pgp.message()).isTrue();
      assertThat(pgp.checks()).hasSize(1000);
      assertThat(ssh.verified()).as(ssh.message()).isTrue();
      assertThat(ssh.checks()).hasSize(1000);
    }
  }
}
