package io.gitfn.source.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTag;
import org.eclipse.jgit.revwalk.RevWalk;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 30's matrix with signatures git made: each mode accepts the signed case and refuses the unsigned, the
 * unknown-key, the expired-key, the revoked-key (OpenPGP has revocation; SSH keys do not) and the tampered case,
 * naming the object at fault.
 */
class SignedRevisionsTest {

  @TempDir static Path keysDir;

  static PgpTestKey pgpGood;
  static PgpTestKey pgpUnknown;
  static PgpTestKey pgpExpired;
  static PgpTestKey pgpRevoked;
  static Path sshGood;
  static Path sshUnknown;
  static Path sshExpired;
  static VerificationKeys keys;

  @TempDir Path work;

  @BeforeAll
  static void keys() throws Exception {
    pgpGood = PgpTestKey.generate("Alice <alice@gitfn.invalid>");
    pgpUnknown = PgpTestKey.generate("Mallory <mallory@gitfn.invalid>");
    pgpExpired = PgpTestKey.generate(
        "Old <old@gitfn.invalid>", Instant.now().minus(Duration.ofDays(10)), Duration.ofDays(1));
    pgpRevoked = PgpTestKey.generate("Gone <gone@gitfn.invalid>").revoked();
    sshGood = GitTool.sshKey(keysDir, "alice");
    sshUnknown = GitTool.sshKey(keysDir, "mallory");
    sshExpired = GitTool.sshKey(keysDir, "old");
    keys = VerificationKeys.fromSecretData(Map.of(
        "alice.asc", pgpGood.armoredPublicKey(),
        "old.asc", pgpExpired.armoredPublicKey(),
        "gone.asc", pgpRevoked.armoredPublicKey(),
        "alice.sshpub", bytes(GitTool.publicLine(sshGood) + "\n"),
        "allowed_signers", bytes("old@gitfn.invalid valid-before=\"20200101\" " + GitTool.publicLine(sshExpired))));
  }

  enum Format { OpenPGP, SSH }

  enum Case {
    SIGNED(null, null),
    UNSIGNED(Failure.UnsignedCommit, Failure.UnsignedTag),
    UNKNOWN_KEY(Failure.UnknownKey, Failure.UnknownKey),
    EXPIRED_KEY(Failure.ExpiredKey, Failure.ExpiredKey),
    REVOKED_KEY(Failure.RevokedKey, Failure.RevokedKey),
    TAMPERED(Failure.BadSignature, Failure.BadSignature);

    final Failure onCommit;
    final Failure onTag;

    Case(Failure onCommit, Failure onTag) {
      this.onCommit = onCommit;
      this.onTag = onTag;
    }
  }

  static Stream<Arguments> matrix() {
    List<Arguments> arguments = new ArrayList<>();
    for (Format format : Format.values()) {
      for (VerifyMode mode : VerifyMode.values()) {
        for (Case c : Case.values()) {
          if (!(format == Format.SSH && c == Case.REVOKED_KEY)) {
            arguments.add(Arguments.of(format, mode, c));
          }
        }
      }
    }
    return arguments.stream();
  }

  static TestSigner good(Format format) {
    return format == Format.OpenPGP ? TestSigner.openPgp(pgpGood) : TestSigner.ssh(sshGood);
  }

  static TestSigner signer(Format format, Case c) {
    boolean pgp = format == Format.OpenPGP;
    return switch (c) {
      case SIGNED -> good(format);
      case UNSIGNED -> TestSigner.unsigned();
      case UNKNOWN_KEY -> pgp ? TestSigner.openPgp(pgpUnknown) : TestSigner.ssh(sshUnknown);
      case EXPIRED_KEY -> pgp ? TestSigner.openPgp(pgpExpired) : TestSigner.ssh(sshExpired);
      case REVOKED_KEY -> TestSigner.openPgp(pgpRevoked);
      case TAMPERED -> TestSigner.tampered(good(format));
    };
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("matrix")
  void eachModeAcceptsTheSignedCaseAndRefusesTheOthers(Format format, VerifyMode mode, Case c) throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner good = good(format);
    TestSigner tested = signer(format, c);
    String lastVerified = good.commit(git, "first");
    String expectedObject;
    Failure expected;
    RevisionVerifier.Target target;
    switch (mode) {
      case HEAD -> {
        expectedObject = tested.commit(git, "the change");
        expected = c.onCommit;
        target = new RevisionVerifier.Target(ObjectId.fromString(expectedObject), null, null);
      }
      case Tag -> {
        String head = good.commit(git, "the change");
        expectedObject = tested.tag(git, "v1.0.0");
        expected = c.onTag;
        target = new RevisionVerifier.Target(ObjectId.fromString(head), ObjectId.fromString(expectedObject), null);
      }
      case TagAndHEAD -> {
        expectedObject = tested.commit(git, "the change");
        String tag = good.tag(git, "v1.0.0");
        expected = c.onCommit;
        target = new RevisionVerifier.Target(ObjectId.fromString(expectedObject), ObjectId.fromString(tag), null);
      }
      case Range -> {
        good.commit(git, "second");
        expectedObject = tested.commit(git, "in the middle");
        String head = good.commit(git, "the head");
        expected = c.onCommit;
        target = new RevisionVerifier.Target(
            ObjectId.fromString(head), null, ObjectId.fromString(lastVerified));
      }
      default -> throw new IllegalStateException(mode.toString());
    }

    Verdict verdict;
    try (Repository repository = git.open()) {
      verdict = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC())
          .verify(repository, mode, target);
    }

    assertThat(verdict.failure()).as(verdict.message()).isEqualTo(Optional.ofNullable(expected));
    if (expected == null) {
      assertThat(verdict.checks()).allSatisfy(check -> assertThat(check.verified()).isTrue());
      int objects = switch (mode) {
        case HEAD, Tag -> 1;
        case TagAndHEAD -> 2;
        case Range -> 3;
      };
      assertThat(verdict.checks()).hasSize(objects);
      assertThat(verdict.signer().orElseThrow().fingerprint()).isNotEmpty();
    } else {
      assertThat(verdict.refused().orElseThrow().object()).isEqualTo(expectedObject);
      assertThat(verdict.message()).contains(expectedObject).contains(expected.name());
    }
  }

  @Test
  void aGoodSignatureNamesTheKeyAndItsOwner() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    String sshHead = TestSigner.ssh(sshGood).commit(git, "by ssh");
    String pgpHead = TestSigner.openPgp(pgpGood).commit(git, "by openpgp");
    String sshFingerprint = GitTool.run(keysDir, List.of("ssh-keygen", "-lf", sshGood + ".pub")).split(" ")[1];

    try (Repository repository = git.open()) {
      RevisionVerifier verifier = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC());
      SignatureCheck ssh = verifier.head(repository, ObjectId.fromString(sshHead)).signer().orElseThrow();
      SignatureCheck pgp = verifier.head(repository, ObjectId.fromString(pgpHead)).signer().orElseThrow();

      assertThat(ssh.fingerprint()).isEqualTo(sshFingerprint);
      assertThat(ssh.signer()).isEqualTo("alice@gitfn.invalid");
      assertThat(ssh.object()).isEqualTo(sshHead);
      assertThat(pgp.fingerprint()).isEqualTo(pgpGood.fingerprint());
      assertThat(pgp.signer()).isEqualTo("Alice <alice@gitfn.invalid>");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ed25519", "ecdsa", "rsa"})
  void everyKeyTypeSshKeygenMakesVerifies(String type) throws Exception {
    Path key = GitTool.sshKey(work.resolve("keys"), type, type);
    VerificationKeys typed = VerificationKeys.fromSecretData(Map.of("k.sshpub", bytes(GitTool.publicLine(key))));
    GitTool git = GitTool.init(work.resolve("repo"));
    ObjectId head = ObjectId.fromString(TestSigner.ssh(key).commit(git, "signed with " + type));
    ObjectId tampered = ObjectId.fromString(TestSigner.tampered(TestSigner.ssh(key)).commit(git, "and tampered"));

    try (Repository repository = git.open()) {
      RevisionVerifier verifier = new RevisionVerifier(typed, VerificationKeys.none(), Clock.systemUTC());

      assertThat(verifier.head(repository, head).verified()).isTrue();
      assertThat(verifier.head(repository, tampered).failure()).contains(Failure.BadSignature);
    }
  }

  @Test
  void anAllowedSignersEntryNamesItsPrincipalsAndKeepsToGitsNamespace() throws Exception {
    String line = GitTool.publicLine(sshGood);
    VerificationKeys signers = VerificationKeys.fromSecretData(Map.of(
        "allowed_signers", bytes("alice@gitfn.invalid,a@gitfn.invalid namespaces=\"git,file\" " + line)));
    VerificationKeys fileOnly = VerificationKeys.fromSecretData(Map.of(
        "allowed_signers", bytes("alice@gitfn.invalid namespaces=\"file\" " + line)));
    GitTool git = GitTool.init(work.resolve("repo"));
    ObjectId head = ObjectId.fromString(TestSigner.ssh(sshGood).commit(git, "by ssh"));

    try (Repository repository = git.open()) {
      Verdict allowed = new RevisionVerifier(signers, VerificationKeys.none(), Clock.systemUTC())
          .head(repository, head);
      Verdict otherNamespace = new RevisionVerifier(fileOnly, VerificationKeys.none(), Clock.systemUTC())
          .head(repository, head);

      assertThat(allowed.signer().orElseThrow().signer()).isEqualTo("alice@gitfn.invalid,a@gitfn.invalid");
      assertThat(otherNamespace.failure()).contains(Failure.UnknownKey);
      assertThat(otherNamespace.message()).contains("namespaces file, not git");
    }
  }

  @Test
  void aTagThatDoesNotPointAtTheHeadIsNotVerifiedForIt() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner.ssh(sshGood).commit(git, "tagged");
    ObjectId tag = ObjectId.fromString(TestSigner.ssh(sshGood).tag(git, "v1"));
    ObjectId head = ObjectId.fromString(git.commit("unsigned, after the tag", null));

    try (Repository repository = git.open()) {
      RevisionVerifier verifier = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC());
      RevisionVerifier.Target target = new RevisionVerifier.Target(head, tag, null);

      assertThatThrownBy(() -> verifier.verify(repository, VerifyMode.Tag, target))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not at the head " + head.name());
    }
  }

  @Test
  void aSignedMergeOfASignedTagVerifiesWithTheTagInItsSignedBytes() throws Exception {
    // git copies a merged signed tag into a mergetag header, signature and all; only gpgsig is left out.
    GitTool git = GitTool.init(work.resolve("repo"));
    TestSigner alice = TestSigner.ssh(sshGood);
    alice.commit(git, "first");
    git.git("checkout", "-q", "-b", "release");
    alice.commit(git, "release fix");
    alice.tag(git, "v1.0.1");
    git.git("checkout", "-q", "main");
    alice.commit(git, "meanwhile");
    git.git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + sshGood, "merge", "-q", "--no-ff", "-S", "-m",
        "Merge v1.0.1", "v1.0.1");
    ObjectId merge = ObjectId.fromString(git.git("rev-parse", "HEAD"));

    try (Repository repository = git.open()) {
      assertThat(new String(repository.open(merge).getBytes(), StandardCharsets.UTF_8))
          .contains("\nmergetag object ").contains("\ngpgsig ");
      Verdict verdict = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC()).head(repository, merge);

      assertThat(verdict.verified()).as(verdict.message()).isTrue();
    }
  }

  @Test
  void theSignatureReadIsTheOneJGitReads() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    ObjectId commit = ObjectId.fromString(TestSigner.ssh(sshGood).commit(git, "signed"));
    ObjectId tag = ObjectId.fromString(TestSigner.ssh(sshGood).tag(git, "v1"));

    try (Repository repository = git.open(); RevWalk walk = new RevWalk(repository)) {
      RevCommit parsedCommit = walk.parseCommit(commit);
      RevTag parsedTag = walk.parseTag(tag);

      // Up to the last newline, which JGit leaves off a commit's signature and git hands gpg and ssh-keygen.
      assertThat(text(SignedPayload.of(parsedCommit).signature().orElseThrow()))
          .isEqualTo(text(parsedCommit.getRawGpgSignature()));
      assertThat(text(SignedPayload.of(parsedTag).signature().orElseThrow()))
          .isEqualTo(text(parsedTag.getRawGpgSignature()));
    }
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.US_ASCII).strip();
  }

  @Test
  void aLightweightTagIsRefusedAsUnsigned() throws Exception {
    GitTool git = GitTool.init(work.resolve("repo"));
    String head = TestSigner.ssh(sshGood).commit(git, "signed");
    git.git("tag", "v1");

    try (Repository repository = git.open()) {
      Verdict verdict = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC())
          .tag(repository, repository.resolve("refs/tags/v1"));

      assertThat(verdict.failure()).contains(Failure.UnsignedTag);
      assertThat(verdict.message()).contains("lightweight").contains(head);
    }
  }

  @Test
  void oneRepositorysKeysDoNotVerifyAnothersCommits() throws Exception {
    VerificationKeys otherTenant = VerificationKeys.fromSecretData(Map.of(
        "mallory.sshpub", bytes(GitTool.publicLine(sshUnknown)), "mallory.asc", pgpUnknown.armoredPublicKey()));
    GitTool git = GitTool.init(work.resolve("repo"));
    ObjectId head = ObjectId.fromString(TestSigner.ssh(sshUnknown).commit(git, "mallory's"));

    try (Repository repository = git.open()) {
      Verdict forOtherTenant = new RevisionVerifier(otherTenant, VerificationKeys.none(), Clock.systemUTC())
          .head(repository, head);
      Verdict forThisOne = new RevisionVerifier(keys, VerificationKeys.none(), Clock.systemUTC())
          .head(repository, head);

      assertThat(forOtherTenant.verified()).isTrue();
      assertThat(forThisOne.failure()).contains(Failure.UnknownKey);
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
