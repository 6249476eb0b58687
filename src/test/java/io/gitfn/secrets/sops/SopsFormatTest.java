package io.gitfn.secrets.sops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The reader against files this test writes the way sops does ({@link SopsWriter}), for what the real sops never
 * writes: wrong lengths, unknown types, hostile sizes and shapes. Every refusal names the file and says why, and no
 * message holds a value.
 */
class SopsFormatTest {

  private static final String FILE = "infra/db.sops.yaml";
  private static final String SECRET = "correct-horse-battery-staple";

  private final byte[] key = randomKey();
  private final SopsWriter writer = new SopsWriter(key).stringData("password", SECRET).stringData("user", "admin");

  @Test
  void readsWhatTheWriterWrites() throws SopsException {
    DecryptedDocument decrypted = SopsFile.decrypt(FILE, bytes(writer.yaml()), writer.keys());

    assertThat(decrypted.document().path("stringData").path("password").asText()).isEqualTo(SECRET);
    assertThat(decrypted.document().path("kind").asText()).isEqualTo("Secret");
    assertThat(decrypted.document().has("sops")).isFalse();
    assertThat(decrypted.recipient()).isEqualTo("age1test");
    assertThat(decrypted.toString()).doesNotContain(SECRET).doesNotContain("admin");
  }

  @Test
  void anIvOfTheWrongLengthIsRefusedNamingThePath() {
    assertRefused(writer.yaml(12, "str"), SopsException.Reason.MALFORMED_VALUE, "stringData.password",
        "IV of 12 bytes");
  }

  @Test
  void anUnknownTypeIsRefusedNamingIt() {
    assertRefused(writer.yaml(32, "blob"), SopsException.Reason.MALFORMED_VALUE, "stringData.password",
        "type `blob`");
  }

  @Test
  void aTruncatedEncValueIsMalformed() {
    String yaml = writer.yaml().replaceFirst("(password: ENC\\[AES256_GCM,data:[^,]*),iv:", "$1,IV:");
    assertRefused(yaml, SopsException.Reason.MALFORMED_VALUE, "stringData.password", "not a well-formed ENC[");
  }

  @Test
  void aTagOfTheWrongLengthIsMalformed() {
    String yaml = writer.yaml().replaceFirst("(password: ENC\\[[^]]*),tag:[^,]*,", "$1,tag:AAAA,");
    assertRefused(yaml, SopsException.Reason.MALFORMED_VALUE, "stringData.password", "GCM tag of 3 bytes");
  }

  @Test
  void aValueLeftInPlaintextIsRefusedWithoutQuotingIt() {
    String yaml = writer.yaml().replaceFirst("password: ENC\\[[^]]*]", "password: " + SECRET);
    assertRefused(yaml, SopsException.Reason.MALFORMED_VALUE, "stringData.password", "should be encrypted");
  }

  @Test
  void aValueMovedToAnotherKeyFailsItsTag() {
    String yaml = writer.yaml();
    String password = yaml.replaceAll("(?s).*password: (ENC\\[[^]]*]).*", "$1");
    String moved = yaml.replaceFirst("user: ENC\\[[^]]*]", "user: " + password.replace("$", "\\$"));
    assertRefused(moved, SopsException.Reason.VALUE_TAMPERED, "stringData.user", "authentication tag");
  }

  @Test
  void aFileWithoutSopsBlockIsNotSops() {
    String yaml = "apiVersion: v1\nkind: Secret\nstringData:\n  password: " + SECRET + "\n";
    assertRefused(yaml, SopsException.Reason.NOT_SOPS, null, "no top-level sops block");
  }

  @Test
  void anOversizeFileIsRefusedBeforeParsing() {
    byte[] big = new byte[SopsLimits.DEFAULT.maxBytes() + 1];
    Arrays.fill(big, (byte) '[');
    SopsException e = refused(big);
    assertThat(e.reason()).isEqualTo(SopsException.Reason.TOO_LARGE);
    assertThat(e).hasMessageContaining(FILE).hasMessageContaining("1048577 bytes");
  }

  @Test
  void tooManyValuesAreRefusedBeforeTheTreeIsBuilt() {
    StringBuilder yaml = new StringBuilder("data:\n");
    for (int i = 0; i <= 1000; i++) {
      yaml.append("  k").append(i).append(": v\n");
    }
    SopsException e = refused(bytes(yaml.toString()));
    assertThat(e.reason()).isEqualTo(SopsException.Reason.TOO_LARGE);
    assertThat(e).hasMessageContaining("more than 1000 values");
  }

  @Test
  void deepNestingIsRefused() {
    SopsException e = refused(bytes("x: " + "[".repeat(40) + "]".repeat(40) + "\n"));
    assertThat(e.reason()).isEqualTo(SopsException.Reason.TOO_LARGE);
    assertThat(e).hasMessageContaining("deeper than 16");
  }

  @Test
  void aliasesAreRefused() {
    SopsException e = refused(bytes("a: &x [1, 2]\nb: *x\n"));
    assertThat(e.reason()).isEqualTo(SopsException.Reason.UNSUPPORTED);
    assertThat(e).hasMessageContaining("alias *x");
  }

  @Test
  void aKeyGivenTwiceIsRefused() {
    String yaml = writer.yaml().replace("kind: ", "apiVersion: ");
    assertRefused(yaml, SopsException.Reason.NOT_YAML, "apiVersion", "given twice");
  }

  @Test
  void severalDocumentsAreRefused() {
    assertRefused(writer.yaml() + "---\n" + writer.yaml(), SopsException.Reason.NOT_YAML, null,
        "more than one YAML document");
  }

  @Test
  void noMatchingIdentityNamesTheFile() {
    SopsException e = catchThrowableOfType(() -> SopsFile.decrypt(FILE, bytes(writer.yaml()), recipients -> {
      throw new DataKeySource.NoMatchingIdentity("no identity opens age1test");
    }), SopsException.class);
    assertThat(e.reason()).isEqualTo(SopsException.Reason.NO_MATCHING_IDENTITY);
    assertThat(e).hasMessage(FILE + ": sops.age: no identity opens age1test");
  }

  @Test
  void aWrongDataKeyFailsTheFirstValue() {
    SopsException e = catchThrowableOfType(
        () -> SopsFile.decrypt(FILE, bytes(writer.yaml()), recipients -> new DataKey(randomKey(), "age1other")),
        SopsException.class);
    assertThat(e.reason()).isEqualTo(SopsException.Reason.VALUE_TAMPERED);
    assertThat(e.path()).isEqualTo("apiVersion");
  }

  @Test
  void shamirKeyGroupsAreRefused() {
    String yaml = writer.yaml().replace("    unencrypted_suffix:", "    key_groups: []\n    unencrypted_suffix:");
    assertRefused(yaml, SopsException.Reason.UNSUPPORTED, "sops.key_groups", "Shamir");
  }

  @Test
  void twoEncryptionRulesAreRefusedAsSopsRefusesThem() {
    String yaml =
        writer.yaml().replace("    unencrypted_suffix:", "    encrypted_regex: ^data$\n    unencrypted_suffix:");
    assertRefused(yaml, SopsException.Reason.NOT_SOPS, "sops", "allows one of them");
  }

  @Test
  void aCatastrophicRegexIsCutOff() {
    String yaml = writer.yaml().replace("    unencrypted_suffix: _unencrypted", "    encrypted_regex: '(.*a){20}b'")
        .replace("apiVersion:", "a".repeat(24) + ": x\napiVersion:");
    SopsException e = refused(bytes(yaml));
    assertThat(e.reason()).isEqualTo(SopsException.Reason.UNSUPPORTED);
    assertThat(e).hasMessageContaining("too long to match");
  }

  @Test
  void unencryptedNumbersAndDatesSopsWouldHashWithGoFormattingAreRefused() {
    String yaml = writer.yaml().replace("apiVersion:", "when_unencrypted: 2026-01-01\napiVersion:");
    assertRefused(yaml, SopsException.Reason.UNSUPPORTED, "when_unencrypted", "quote it");
  }

  @Test
  void keysAndValuesDoNotPrintTheirSecrets() {
    assertThat(new DataKey(key, "age1x").toString()).doesNotContain(HexFormat.of().formatHex(key));
    assertThat(new Leaf(TextNode.valueOf(SECRET), bytes(SECRET)).toString())
        .doesNotContain(SECRET);
  }

  private void assertRefused(String yaml, SopsException.Reason reason, String path, String words) {
    SopsException e = refused(bytes(yaml));
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.path()).isEqualTo(path);
    assertThat(e.file()).isEqualTo(FILE);
    assertThat(e).hasMessageStartingWith(FILE + ": ").hasMessageContaining(words);
  }

  private SopsException refused(byte[] content) {
    SopsException e = catchThrowableOfType(() -> SopsFile.decrypt(FILE, content, writer.keys()),
        SopsException.class);
    assertThat(e).as("refused").isNotNull();
    assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain("admin");
    return e;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }
}
