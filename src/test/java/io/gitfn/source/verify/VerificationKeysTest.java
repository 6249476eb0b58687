package io.gitfn.source.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A Secret's key entries as Flux reads them, and garbage named by entry and line. */
class VerificationKeysTest {

  // Two real OpenSSH public keys (ssh-keygen -t ed25519 and -t ecdsa); only the key material matters here.
  private static final String ED25519 =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMdS18/B1J+ZHZI5XHVcgoKbr3Fj064tuU6GmESCx60b";
  private static final String ECDSA = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIvh/"
      + "EeRKBXtuw4IPTu0wfkPuvMv66HVp0nAqZ8uJvQQmVbLNX5Cm96k7fR0cMgDfdeJFycNKegPxnwSvAYT5ts=";

  @Test
  void armoredKeysKeepTheirFingerprintCreationExpiryAndRevocation() throws Exception {
    Instant created = Instant.now().minus(Duration.ofDays(3)).truncatedTo(ChronoUnit.SECONDS);
    PgpTestKey expiring = PgpTestKey.generate("Bob <bob@gitfn.invalid>", created, Duration.ofDays(30));
    PgpTestKey revoked = PgpTestKey.generate("Gone <gone@gitfn.invalid>").revoked();
    // Two key blocks in one entry, as `gpg --export --armor a b` run twice and concatenated would give.
    byte[] both = (new String(expiring.armoredPublicKey(), StandardCharsets.US_ASCII) + "\n"
        + new String(revoked.armoredPublicKey(), StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);

    VerificationKeys keys = VerificationKeys.fromSecretData(Map.of("team.asc", both));

    assertThat(keys.openPgp()).hasSize(2);
    OpenPgpKey bob = keys.openPgp().get(0);
    assertThat(bob.fingerprint()).isEqualTo(expiring.fingerprint()).hasSize(40);
    assertThat(bob.userId()).isEqualTo("Bob <bob@gitfn.invalid>");
    assertThat(bob.created()).isEqualTo(created);
    assertThat(bob.expires()).contains(created.plus(Duration.ofDays(30)));
    assertThat(bob.revoked()).isFalse();
    assertThat(bob.entry()).isEqualTo("team.asc");
    OpenPgpKey gone = keys.openPgp().get(1);
    assertThat(gone.revoked()).isTrue();
    assertThat(gone.expires()).isEmpty();
  }

  @Test
  void authorizedKeysLinesKeepTypeBlobAndCommentAndSkipTheirOptions() throws Exception {
    String lines = "# deploy keys\n\n" + ED25519 + " alice@laptop\n"
        + "no-pty,command=\"echo \\\"hi, there\\\"\" " + ECDSA + "\n";

    VerificationKeys keys = VerificationKeys.fromSecretData(Map.of("team.sshpub", bytes(lines)));

    assertThat(keys.ssh()).hasSize(2);
    SshKey alice = keys.ssh().get(0);
    assertThat(alice.type()).isEqualTo("ssh-ed25519");
    assertThat(alice.blob()).isEqualTo(ED25519.split(" ")[1]);
    assertThat(alice.comment()).isEqualTo("alice@laptop");
    assertThat(alice.signer()).isEqualTo("alice@laptop");
    assertThat(alice.source()).isEqualTo("team.sshpub:3");
    assertThat(alice.fingerprint()).startsWith("SHA256:").hasSize(50);
    assertThat(keys.ssh().get(1).type()).isEqualTo("ecdsa-sha2-nistp256");
    assertThat(keys.ssh().get(1).comment()).isEmpty();
  }

  @Test
  void allowedSignersKeepPrincipalsNamespacesAndValidity() throws Exception {
    String lines = "\"alice@gitfn.invalid,bob@gitfn.invalid\" namespaces=\"git,file\",valid-after=\"20240101\","
        + "valid-before=\"20300101120000Z\" " + ED25519 + " alice\n"
        + "\"carol@gitfn.invalid\" " + ECDSA + "\n";

    VerificationKeys keys = VerificationKeys.fromSecretData(Map.of("allowed_signers", bytes(lines)));

    SshKey alice = keys.ssh().get(0);
    assertThat(alice.principals()).containsExactly("alice@gitfn.invalid", "bob@gitfn.invalid");
    assertThat(alice.namespaces()).isEqualTo(Set.of("git", "file"));
    assertThat(alice.validAfter()).contains(Instant.parse("2024-01-01T00:00:00Z"));
    assertThat(alice.validBefore()).contains(Instant.parse("2030-01-01T12:00:00Z"));
    SshKey carol = keys.ssh().get(1);
    assertThat(carol.principals()).containsExactly("carol@gitfn.invalid");
    assertThat(carol.namespaces()).isEmpty();
    assertThat(carol.signer()).isEqualTo("carol@gitfn.invalid");
  }

  @Test
  void garbageNamesTheEntryAndTheLine() {
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("team.sshpub", bytes(ED25519 + "\nhello world\n"))))
        .isInstanceOf(KeyDataException.class)
        .hasMessageStartingWith("entry team.sshpub, line 2: ")
        .hasMessageContaining("'hello' is not an SSH key type");
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("team.sshpub", bytes("ssh-ed25519 AAAA!!!\n"))))
        .hasMessage("entry team.sshpub, line 1: the ssh-ed25519 key is not base64");
    String wrongType = "ssh-rsa " + ED25519.split(" ")[1];
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("a.sshpub", bytes(wrongType))))
        .hasMessage("entry a.sshpub, line 1: the key says it is ssh-ed25519, the line says ssh-rsa");
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(
        Map.of("allowed_signers", bytes("# signers\na@gitfn.invalid cert-authority " + ED25519))))
        .hasMessageStartingWith("entry allowed_signers, line 2: cert-authority");
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(
        Map.of("allowed_signers", bytes("a@gitfn.invalid valid-before=\"tomorrow\" " + ED25519))))
        .hasMessageContaining("line 1: time 'tomorrow' is not");
    String block = "\n\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----\n";
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("team.asc", bytes(block))))
        .isInstanceOf(KeyDataException.class)
        .hasMessageStartingWith("entry team.asc, line 3: not an OpenPGP public key block");
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("team.asc", bytes("just text"))))
        .hasMessageStartingWith("entry team.asc has no '-----BEGIN PGP PUBLIC KEY BLOCK-----' line");
  }

  @Test
  void aPrivateKeyIsRefusedWithoutBeingRead() {
    String secret = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nAAAA\n-----END PGP PRIVATE KEY BLOCK-----\n";

    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("me.asc", bytes(secret))))
        .hasMessageStartingWith("entry me.asc holds an OpenPGP private key");
  }

  @Test
  void entriesAndKeysAreBounded() {
    byte[] large = new byte[VerificationKeys.MAX_ENTRY_BYTES + 1];
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("big.sshpub", large)))
        .hasMessageStartingWith("entry big.sshpub is 65537 bytes, more than the limit of 65536");

    Map<String, byte[]> many = new HashMap<>();
    many.put("a.sshpub", bytes((ED25519 + "\n").repeat(60)));
    many.put("b.sshpub", bytes((ECDSA + "\n").repeat(41)));
    assertThatThrownBy(() -> VerificationKeys.fromSecretData(many))
        .hasMessage("entry b.sshpub, line 41 brings the Secret over 100 keys");
  }

  @Test
  void otherEntriesAreLeftAloneButASecretWithoutKeysIsRefused() throws Exception {
    VerificationKeys keys = VerificationKeys.fromSecretData(
        Map.of("README", bytes("not a key"), "k.sshpub", bytes(ED25519)));
    assertThat(keys.ssh()).hasSize(1);

    assertThatThrownBy(() -> VerificationKeys.fromSecretData(Map.of("README", bytes("x"))))
        .hasMessageStartingWith("the Secret holds no key");
  }

  @Test
  void noKeysIsEmptyAndVerifiesNothing() {
    assertThat(VerificationKeys.none().isEmpty()).isTrue();
    assertThat(VerificationKeys.none().openPgp()).isEqualTo(List.of());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
