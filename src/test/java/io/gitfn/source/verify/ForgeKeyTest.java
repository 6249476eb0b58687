package io.gitfn.source.verify;

import static io.gitfn.source.verify.SignedRevisionsTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forge key (GitHub's web-flow key, GitLab's or Gitea's instance key) is trusted only for merge commits whose
 * merged parents verify with the repository's own keys: a UI merge of a signed branch goes, of an unsigned one
 * does not, and nothing else the forge signs goes.
 */
class ForgeKeyTest {

  @TempDir static Path keysDir;
  static Path alice;
  static Path forge;
  static PgpTestKey webFlow;
  static VerificationKeys repositoryKeys;
  static VerificationKeys forgeKeys;

  @TempDir Path work;

  @BeforeAll
  static void keys() throws Exception {
    alice = GitTool.sshKey(keysDir, "alice");
    forge = GitTool.sshKey(keysDir, "forge");
    webFlow = PgpTestKey.generate("GitHub (web-flow commit signing) <noreply@github.com>");
    repositoryKeys = VerificationKeys.fromSecretData(Map.of("alice.sshpub", bytes(GitTool.publicLine(alice))));
    forgeKeys = VerificationKeys.fromSecretData(Map.of(
        "forge.sshpub", bytes(GitTool.publicLine(forge)), "web-flow.asc", webFlow.armoredPublicKey()));
  }

  private RevisionVerifier verifier() {
    return new RevisionVerifier(repositoryKeys, forgeKeys, Clock.systemUTC());
  }

  /** main has one commit by alice; branch feature gets {@code branch}'s commits; main stays checked out. */
  private GitTool repositoryWithBranch(TestSigner... branch) throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner.ssh(alice).commit(git, "first");
    git.git("checkout", "-q", "-b", "feature");
    int i = 0;
    for (TestSigner signer : branch) {
      signer.commit(git, "feature change " + ++i);
    }
    git.git("checkout", "-q", "main");
    TestSigner.ssh(alice).commit(git, "meanwhile on main");
    return git;
  }

  /** What the forge's "Merge pull request" button makes: a merge commit signed with the forge's key. */
  private static String forgeMerge(GitTool git, String branch) {
    git.git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + forge, "merge", "-q", "--no-ff", "-S", "-m",
        "Merge pull request #1 from " + branch, branch);
    return git.git("rev-parse", "HEAD");
  }

  @Test
  void aForgeSignedMergeOfASignedBranchVerifies() throws Exception {
    GitTool git = repositoryWithBranch(TestSigner.ssh(alice));
    String merge = forgeMerge(git, "feature");
    String forgeFingerprint = GitTool.run(keysDir, List.of("ssh-keygen", "-lf", forge + ".pub"))
        .split(" ")[1];

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().head(repository, ObjectId.fromString(merge));

      assertThat(verdict.verified()).as(verdict.message()).isTrue();
      SignatureCheck check = verdict.signer().orElseThrow();
      assertThat(check.object()).isEqualTo(merge);
      assertThat(check.fingerprint()).isEqualTo(forgeFingerprint);
      assertThat(check.detail()).contains("a forge key").contains(git.git("rev-parse", "feature"));
    }
  }

  @Test
  void aForgeSignedMergeOfAnUnsignedBranchIsRefusedNamingTheUnsignedCommit() throws Exception {
    GitTool git = repositoryWithBranch(TestSigner.unsigned());
    String unsigned = git.git("rev-parse", "feature");
    String merge = forgeMerge(git, "feature");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().head(repository, ObjectId.fromString(merge));

      assertThat(verdict.failure()).contains(Failure.UnsignedCommit);
      assertThat(verdict.refused().orElseThrow().object()).isEqualTo(unsigned);
      assertThat(verdict.message()).contains("merged by " + merge).contains("only forge key");
    }
  }

  @Test
  void anOpenPgpForgeKeySignsMergesLikeGitHubsWebFlowKey() throws Exception {
    GitTool signedBranch = repositoryWithBranch(TestSigner.ssh(alice));
    signedBranch.git("merge", "-q", "--no-ff", "-m", "Merge pull request #2 from feature", "feature");

    try (Repository repository = signedBranch.open()) {
      ObjectId merge = PgpSigning.signCommit(repository, "refs/heads/main", webFlow);
      Verdict verdict = verifier().head(repository, merge);

      assertThat(verdict.verified()).as(verdict.message()).isTrue();
      assertThat(verdict.signer().orElseThrow().fingerprint()).isEqualTo(webFlow.fingerprint());
      assertThat(verdict.signer().orElseThrow().signer()).contains("web-flow");
    }
  }

  @Test
  void aForgeSignedCommitWithOneParentIsRefused() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner.ssh(alice).commit(git, "first");
    String webEdit = TestSigner.ssh(forge).commit(git, "Update README.md (edited in the web UI)");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().head(repository, ObjectId.fromString(webEdit));

      assertThat(verdict.failure()).contains(Failure.UnknownKey);
      assertThat(verdict.message()).contains("trusted for merge commits only");
    }
  }

  @Test
  void theRuleDoesNotChainThroughAForgeSignedMergeOnTheBranch() throws Exception {
    // GitHub's "Update branch": the forge merges main into the pull request, whose own commit is unsigned.
    GitTool git = repositoryWithBranch(TestSigner.unsigned());
    git.git("checkout", "-q", "feature");
    String updateBranch = forgeMerge(git, "main");
    git.git("checkout", "-q", "main");
    String merge = forgeMerge(git, "feature");

    try (Repository repository = git.open()) {
      Verdict verdict = verifier().head(repository, ObjectId.fromString(merge));

      assertThat(verdict.failure()).contains(Failure.UnknownKey);
      assertThat(verdict.refused().orElseThrow().object()).isEqualTo(updateBranch);
    }
  }

  @Test
  void withoutForgeKeysAForgeSignedMergeIsAnUnknownKey() throws Exception {
    GitTool git = repositoryWithBranch(TestSigner.ssh(alice));
    String merge = forgeMerge(git, "feature");

    try (Repository repository = git.open()) {
      Verdict verdict = new RevisionVerifier(repositoryKeys, VerificationKeys.none(), Clock.systemUTC())
          .head(repository, ObjectId.fromString(merge));

      assertThat(verdict.failure()).contains(Failure.UnknownKey);
    }
  }

  @Test
  void rangeChecksEveryMergedCommitWhereHeadChecksOnlyTheMergedTip() throws Exception {
    // An unsigned commit under a signed one on the branch: HEAD trusts the signed tip, Range finds the other.
    GitTool git = repositoryWithBranch(TestSigner.unsigned(), TestSigner.ssh(alice));
    String unsigned = git.git("rev-parse", "feature~1");
    String lastVerified = git.git("rev-parse", "main~1");
    String merge = forgeMerge(git, "feature");

    try (Repository repository = git.open()) {
      Verdict head = verifier().head(repository, ObjectId.fromString(merge));
      Verdict range = verifier().range(repository, ObjectId.fromString(lastVerified), ObjectId.fromString(merge));

      assertThat(head.verified()).as(head.message()).isTrue();
      assertThat(range.failure()).contains(Failure.UnsignedCommit);
      assertThat(range.refused().orElseThrow().object()).isEqualTo(unsigned);
    }
  }
}
