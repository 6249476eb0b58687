package io.gitfn.secrets.sops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reader against files the real sops wrote (src/test/resources/io/gitfn/secrets/sops/README.md says how, with
 * which version and identities): a Secret with stringData, data and an {@code _unencrypted} key, encrypted to two age
 * recipients, once with sops' defaults and once with Flux's {@code encrypted_regex} layout, and a second version of
 * it made by {@code sops set}. The data key comes through the seam from a stand-in for age ({@link Fixtures#holding}).
 */
class SopsFixturesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FILE = "infra/secret.sops.yaml";
  private static final String FIRST = Fixtures.recipient("identity-1.agekey");
  private static final String SECOND = Fixtures.recipient("identity-2.agekey");
  private static final String SECRET = Fixtures.text("secret.sops.yaml");
  /** secret.sops.yaml's data key, which secret-v2.sops.yaml shares. */
  private static final String KEY = "secret.data-key.hex";

  private final JsonNode expected = read(Fixtures.text("secret.decrypted.json"));

  @Test
  void decryptsToTheDocumentSopsDecryptsTo() throws Exception {
    DecryptedDocument decrypted =
        SopsFile.decrypt(FILE, Fixtures.bytes("secret.sops.yaml"), Fixtures.holding(KEY, FIRST));

    assertThat(normalized(decrypted.document())).isEqualTo(expected);
    assertThat(decrypted.document().path("stringData").path("password").asText()).isEqualTo("fixture-password-1");
    assertThat(decrypted.document().path("data").path("token").asText()).isEqualTo("Zml4dHVyZS10b2tlbg==");
    assertThat(decrypted.sopsVersion()).isEqualTo("3.13.3");
    assertThat(decrypted.toString()).doesNotContain("fixture-password-1");
  }

  @Test
  void eitherIdentityDecryptsAndTheMatchingRecipientIsReported() throws Exception {
    assertThat(SopsFile.decrypt(FILE, Fixtures.bytes("secret.sops.yaml"), Fixtures.holding(KEY, SECOND)).recipient())
        .isEqualTo(SECOND);
    assertThat(SopsFile.decrypt(FILE, Fixtures.bytes("secret.sops.yaml"), Fixtures.holding(KEY, FIRST)).recipient())
        .isEqualTo(FIRST);
  }

  @Test
  void fluxsEncryptedRegexLayoutDecryptsToTheSameDocument() throws Exception {
    DecryptedDocument decrypted =
        SopsFile.decrypt(FILE, Fixtures.bytes("secret-regex.sops.yaml"),
            Fixtures.holding("secret-regex.data-key.hex", SECOND));

    assertThat(Fixtures.text("secret-regex.sops.yaml")).contains("name: orders-db");
    assertThat(normalized(decrypted.document())).isEqualTo(expected);
  }

  @Test
  void anUnencryptedSuffixKeyStaysReadableAndIsCoveredByTheMac() {
    assertThat(SECRET).contains("owner_unencrypted: team-orders");

    SopsException e = refused(SECRET.replace("owner_unencrypted: team-orders", "owner_unencrypted: team-other"));

    assertThat(e.reason()).isEqualTo(SopsException.Reason.MAC_MISMATCH);
    assertThat(e).hasMessageContaining("does not match the file's values");
  }

  @Test
  void aValueEditedWithSopsSetDecryptsWithTheSameDataKey() throws Exception {
    DecryptedDocument v2 = SopsFile.decrypt(FILE, Fixtures.bytes("secret-v2.sops.yaml"), Fixtures.holding(KEY, FIRST));

    assertThat(v2.document().path("stringData").path("password").asText()).isEqualTo("rotated-password-2");
  }

  @Test
  void aFlippedByteInOneValueFailsItsTagNamingThePathNotTheValue() {
    SopsException e = refused(Fixtures.flipDataByte(SECRET, "password"));

    assertThat(e.reason()).isEqualTo(SopsException.Reason.VALUE_TAMPERED);
    assertThat(e.path()).isEqualTo("stringData.password");
    assertThat(e).hasMessageStartingWith(FILE + ": stringData.password: does not decrypt");
  }

  @Test
  void aChangedMacIsAMacFailure() {
    SopsException e = refused(Fixtures.flipDataByte(SECRET, "mac"));

    assertThat(e.reason()).isEqualTo(SopsException.Reason.MAC_MISMATCH);
    assertThat(e.path()).isEqualTo("sops.mac");
  }

  @Test
  void aValueReplacedByAnotherValidCiphertextOfTheSameKeyIsAMacFailure() {
    // secret-v2's password was encrypted by sops with the same data key at the same path, so its tag verifies here.
    String v2Password = Fixtures.encValue(Fixtures.text("secret-v2.sops.yaml"), "password");
    String spliced = SECRET.replace(Fixtures.encValue(SECRET, "password"), v2Password);
    assertThat(spliced).isNotEqualTo(SECRET);

    SopsException e = refused(spliced);

    assertThat(e.reason()).isEqualTo(SopsException.Reason.MAC_MISMATCH);
    assertThat(e).hasMessageContaining("does not match the file's values");
  }

  @Test
  void aRemovedValueIsAMacFailure() {
    String removed = SECRET.replaceFirst("\\n\\s+token: ENC\\[[^]]+]", "");
    assertThat(removed).isNotEqualTo(SECRET);

    assertThat(refused(removed).reason()).isEqualTo(SopsException.Reason.MAC_MISMATCH);
  }

  @Test
  void noMatchingIdentityIsReportedAsSuch() {
    SopsException e = catchThrowableOfType(
        () -> SopsFile.decrypt(FILE, Fixtures.bytes("secret.sops.yaml"), Fixtures.holding(KEY, "age1nobody")),
        SopsException.class);

    assertThat(e.reason()).isEqualTo(SopsException.Reason.NO_MATCHING_IDENTITY);
    assertThat(e).hasMessageStartingWith(FILE + ": sops.age: no identity opens any of [" + FIRST + ", " + SECOND);
  }

  @Test
  void anOversizeFileIsRefusedBeforeParsing() {
    SopsException e = refused(SECRET + "#" + "x".repeat(SopsLimits.DEFAULT.maxBytes()) + "\n");

    assertThat(e.reason()).isEqualTo(SopsException.Reason.TOO_LARGE);
  }

  @Test
  void tooManyValuesAreRefusedBeforeParsing() {
    StringBuilder padding = new StringBuilder();
    for (int i = 0; i < SopsLimits.DEFAULT.maxValues(); i++) {
      padding.append("pad").append(i).append("_unencrypted: x\n");
    }

    SopsException e = refused(padding + SECRET);

    assertThat(e.reason()).isEqualTo(SopsException.Reason.TOO_LARGE);
    assertThat(e).hasMessage(FILE + ": has more than 1000 values");
  }

  /** Decrypting {@code yaml} with the first identity fails; its message holds no value of the Secret. */
  private SopsException refused(String yaml) {
    SopsException e = catchThrowableOfType(
        () -> SopsFile.decrypt(FILE, yaml.getBytes(StandardCharsets.UTF_8), Fixtures.holding(KEY, FIRST)),
        SopsException.class);
    assertThat(e).as("refused").isNotNull();
    List<String> values = Fixtures.secretValues(expected);
    assertThat(values).contains("fixture-password-1");
    assertThat(values).allSatisfy(value -> assertThat(e.getMessage()).doesNotContain(value));
    assertThat(e.getMessage()).doesNotContain("rotated-password-2");
    return e;
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode normalized(JsonNode tree) throws IOException {
    return JSON.readTree(JSON.writeValueAsString(tree));
  }
}
