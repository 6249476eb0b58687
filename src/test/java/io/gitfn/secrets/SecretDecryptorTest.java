package io.gitfn.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Secret;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.secrets.age.AgeIdentity;
import io.gitfn.secrets.sops.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A revision's encrypted Secrets, decrypted with the repository's age identities into the Secrets gitfn applies, or
 * refused whole with the file and the reason and no value. The files are the ones the real sops wrote
 * ({@code src/test/resources/io/gitfn/secrets/sops}, {@code orders-db.yaml} their plaintext).
 */
class SecretDecryptorTest {

  static final String DEFAULTS = "orders-db.sops.yaml";
  static final String FLUX = "orders-db-flux.sops.yaml";
  static final String PASSWORD = "orders-db-password-1";
  static final String CONFIG = "url: postgres://orders-db:5432/orders\npool: 5\n";
  static final String TOKEN = "orders-db-token";
  /** What orders-db.yaml holds under data and stringData, plain and in base64: never in a message. */
  static final List<String> PLAINTEXT = List.of(PASSWORD, "postgres://orders-db", TOKEN, base64(TOKEN),
      base64(PASSWORD), base64(CONFIG));

  @Test
  void eitherRecipientsIdentityDecryptsEitherLayoutIntoTheSecretToApply() throws Exception {
    for (String identity : List.of("identity-1.agekey", "identity-2.agekey")) {
      for (String file : List.of(DEFAULTS, FLUX)) {
        DecryptedSecret decrypted = only(SecretDecryptor.decrypt(List.of(document("secrets/" + file)),
            identities(identity), "shop"));

        Secret secret = decrypted.secret();
        assertThat(decrypted.file()).isEqualTo("secrets/" + file);
        assertThat(decrypted.recipient()).as(identity).isEqualTo(Fixtures.recipient(identity));
        assertThat(secret.getMetadata().getName()).isEqualTo("orders-db");
        assertThat(secret.getMetadata().getNamespace()).isEqualTo("shop");
        assertThat(secret.getMetadata().getLabels()).containsExactly(Map.entry("app", "orders"));
        assertThat(secret.getMetadata().getAnnotations()).containsExactly(Map.entry("team", "orders"));
        assertThat(secret.getType()).isEqualTo("Opaque");
        assertThat(secret.getStringData()).as("folded into data, as the API server folds it").isNullOrEmpty();
        assertThat(secret.getData()).containsOnly(Map.entry("password", base64(PASSWORD)),
            Map.entry("config.yaml", base64(CONFIG)), Map.entry("token", base64(TOKEN)));
      }
    }
  }

  @Test
  void theDigestIsTheContentsAloneTheSameWhateverTheLayoutAndTheIdentity() throws Exception {
    List<String> digests = new ArrayList<>();
    for (String identity : List.of("identity-1.agekey", "identity-2.agekey")) {
      for (String file : List.of(DEFAULTS, FLUX)) {
        digests.add(only(SecretDecryptor.decrypt(List.of(document(file)), identities(identity), "shop")).digest());
      }
    }

    assertThat(digests).containsOnly(ContentDigest.of(Map.of("password", base64(PASSWORD),
        "config.yaml", base64(CONFIG), "token", base64(TOKEN))));
    assertThat(digests.get(0)).matches("[0-9a-f]{64}");
  }

  @Test
  void aNamespaceOfAnotherTenantIsRefusedNamingTheFileAndBothNamespaces() {
    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document("secrets/" + FLUX)),
        identities("identity-1.agekey"), "tenant-b"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.INVALID_SECRET);
    assertThat(e.file()).isEqualTo("secrets/" + FLUX);
    assertThat(e).hasMessage("secrets/" + FLUX + ": metadata.namespace: is `shop`, not `tenant-b`, the namespace of the"
        + " FunctionRepository; a repository's Secrets go to its own namespace: remove metadata.namespace or set it"
        + " to tenant-b");
  }

  @Test
  void aTamperedValueIsAMacMismatchAtItsPath() {
    String tampered = Fixtures.flipDataByte(Fixtures.text(FLUX), "password");

    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(written("db.yaml", tampered)),
        identities("identity-1.agekey"), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.MAC_MISMATCH);
    assertThat(e.reason().value()).isEqualTo("MacMismatch");
    assertThat(e).hasMessageStartingWith("db.yaml: stringData.password: does not decrypt");
  }

  @Test
  void aValueSplicedFromAnotherVersionOfTheFileIsAMacMismatch() {
    // secret-v2 is secret after `sops set` with the same data key: its password verifies in place, the MAC tells.
    String spliced = Fixtures.text("secret.sops.yaml").replace(
        Fixtures.encValue(Fixtures.text("secret.sops.yaml"), "password"),
        Fixtures.encValue(Fixtures.text("secret-v2.sops.yaml"), "password"));

    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(written("db.yaml", spliced)),
        identities("identity-2.agekey"), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.MAC_MISMATCH);
    assertThat(e).hasMessageStartingWith("db.yaml: sops.mac: does not match").hasMessageNotContaining("rotated");
  }

  @Test
  void anIdentityOfNoRecipientIsNoMatchingIdentityNamingTheRecipients() throws Exception {
    List<AgeIdentity> stranger = AgeIdentities.parse("stranger.agekey",
        "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX\n");

    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document(DEFAULTS)), stranger, "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.NO_MATCHING_IDENTITY);
    assertThat(e).hasMessageStartingWith(DEFAULTS + ": sops.age: none of the 1 age identities")
        .hasMessageContaining(Fixtures.recipient("identity-1.agekey"))
        .hasMessageContaining(Fixtures.recipient("identity-2.agekey"));
  }

  @Test
  void noIdentityAtAllIsNoMatchingIdentityToo() {
    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document(DEFAULTS)), List.of(), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.NO_MATCHING_IDENTITY);
  }

  @Test
  void aFileOfTwoDocumentsIsMalformed() {
    String two = Fixtures.text(FLUX) + "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: more\n";

    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(written("db.yaml", two)),
        identities("identity-1.agekey"), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.MALFORMED);
    assertThat(e).hasMessage("db.yaml: has more than one YAML document; put one Secret in each SOPS file");
  }

  @Test
  void anAuthenticFileThatIsNoSecretGitfnAppliesIsAnInvalidSecret() {
    // secret.yaml carries owner_unencrypted, which sops keeps in clear and which no Secret has.
    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document("secret.sops.yaml")),
        identities("identity-1.agekey"), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.INVALID_SECRET);
    assertThat(e).hasMessageStartingWith("secret.sops.yaml: `owner_unencrypted` is not a field gitfn applies");
  }

  @Test
  void oneNameInTwoFilesIsRefusedNamingBoth() {
    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document("a/" + DEFAULTS),
        document("b/" + FLUX)), identities("identity-1.agekey"), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.INVALID_SECRET);
    assertThat(e).hasMessage("b/" + FLUX + ": metadata.name: Secret `orders-db` is also defined in a/" + DEFAULTS
        + "; declare each Secret in one file");
  }

  @Test
  void oneBadFileRefusesEveryFileOfTheRevision() {
    String tampered = Fixtures.flipDataByte(Fixtures.text(FLUX), "token");

    SecretException e = refused(() -> SecretDecryptor.decrypt(List.of(document(DEFAULTS),
        written("z.yaml", tampered)), identities("identity-1.agekey"), "shop"));

    assertThat(e.file()).isEqualTo("z.yaml");
  }

  @Test
  void moreEncryptedSecretsThanALimitAreRefusedBeforeAnyIsDecrypted() {
    List<EncryptedDocument> many = new ArrayList<>();
    for (int i = 0; i <= SecretDecryptor.MAX_SECRETS; i++) {
      many.add(new EncryptedDocument("s/" + i + ".yaml", 1, "not even yaml: [".getBytes(StandardCharsets.UTF_8)));
    }

    SecretException e = refused(() -> SecretDecryptor.decrypt(many, List.of(), "shop"));

    assertThat(e.reason()).isEqualTo(SecretException.Reason.TOO_LARGE);
    assertThat(e).hasMessage("s/1000.yaml: is one of 1001 encrypted Secrets in the revision, more than the 1000"
        + " gitfn decrypts; split them over several FunctionRepositories");
  }

  @Test
  void aDecryptedSecretPrintsItsKeysNotItsValuesAndHandsOutCopies() throws Exception {
    DecryptedSecret decrypted = only(SecretDecryptor.decrypt(List.of(document(DEFAULTS)),
        identities("identity-1.agekey"), "shop"));

    decrypted.secret().getData().put("password", base64("changed"));
    decrypted.secret().getMetadata().setName("changed");

    assertThat(decrypted.secret().getData()).containsEntry("password", base64(PASSWORD));
    assertThat(decrypted.secret().getMetadata().getName()).isEqualTo("orders-db");
    assertThat(decrypted.toString()).contains(DEFAULTS, "shop/orders-db", "[config.yaml, password, token]",
        decrypted.recipient(), decrypted.digest());
    PLAINTEXT.forEach(value -> assertThat(decrypted.toString()).doesNotContain(value));
  }

  /** The refusal {@code call} throws, which must hold none of the plaintext. */
  static SecretException refused(ThrowingCallable call) {
    SecretException e = catchThrowableOfType(call, SecretException.class);
    assertThat(e).as("refused").isNotNull();
    PLAINTEXT.forEach(value -> assertThat(e.getMessage()).doesNotContain(value));
    assertThat(e.getCause()).isNull();
    return e;
  }

  /** A fixture as the file {@code path} of a revision; the fixture is the path's last segment. */
  static EncryptedDocument document(String path) {
    return new EncryptedDocument(path, 1, Fixtures.bytes(path.substring(path.lastIndexOf('/') + 1)));
  }

  static EncryptedDocument written(String file, String content) {
    return new EncryptedDocument(file, 1, content.getBytes(StandardCharsets.UTF_8));
  }

  static List<AgeIdentity> identities(String fixture) {
    try {
      return AgeIdentities.parse(fixture, Fixtures.text(fixture));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static DecryptedSecret only(List<DecryptedSecret> secrets) {
    assertThat(secrets).hasSize(1);
    return secrets.get(0);
  }

  static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
