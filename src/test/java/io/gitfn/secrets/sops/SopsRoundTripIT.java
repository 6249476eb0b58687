package io.gitfn.secrets.sops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.manifest.EncryptedDocument;
import io.gitfn.secrets.DecryptedSecret;
import io.gitfn.secrets.SecretDecryptor;
import io.gitfn.secrets.age.AgeIdentities;
import io.gitfn.testbed.SecretTools;
import io.gitfn.testbed.SecretTools.AgeKey;
import io.gitfn.testbed.TestBedBinaries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code sops -e}, at test time, on a fresh Secret encrypted to two fresh age recipients: gitfn's reader
 * decrypts it with either identity, reports which recipient matched, gives the very document {@code sops -d} gives,
 * and holds no value in any refusal; and {@link SecretDecryptor}, with gitfn's own age code, makes of it the Secret
 * to apply, whose digest follows the content, not the encryption. Fails, with the command to run, when sops or age
 * is missing.
 */
class SopsRoundTripIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "round-trip-" + System.nanoTime();
  private static final String SECRET = """
      apiVersion: v1
      kind: Secret
      metadata:
        name: db
        labels:
          app: orders
      type: Opaque
      stringData:
        password: %s
        config.yaml: |
          url: postgres://db:5432/orders
          pool: 5
      data:
        token: c2VjcmV0LXRva2Vu
      replicas: 3
      enabled: true
      ratio: 1.5
      hosts:
        - a.example
        - b.example
      owner_unencrypted: team-orders
      """.formatted(PASSWORD);

  /** A Secret as gitfn applies it: SECRET has fields no Secret has, for the reader's sake. */
  private static final String APPLIED = """
      apiVersion: v1
      kind: Secret
      metadata:
        name: db
      stringData:
        password: %s
      data:
        token: c2VjcmV0LXRva2Vu
      """.formatted(PASSWORD);

  private static SecretTools tools;

  @TempDir
  Path dir;

  @BeforeAll
  static void locateTools() {
    tools = SecretTools.locate();
  }

  @Test
  void eitherIdentityDecryptsWhatSopsEncryptedAndSaysWhichRecipientMatched() throws Exception {
    AgeKey first = identity("first");
    AgeKey second = identity("second");
    byte[] encrypted = encrypt(List.of("--age", first.recipient() + "," + second.recipient()));

    DecryptedDocument withFirst = SopsFile.decrypt("db.sops.yaml", encrypted, keys(first));
    DecryptedDocument withSecond = SopsFile.decrypt("db.sops.yaml", encrypted, keys(second));

    assertThat(withFirst.recipient()).isEqualTo(first.recipient());
    assertThat(withSecond.recipient()).isEqualTo(second.recipient());
    JsonNode expected = sopsDecrypt(encrypted, first);
    assertThat(normalized(withFirst.document())).isEqualTo(expected);
    assertThat(normalized(withSecond.document())).isEqualTo(expected);
    assertThat(withFirst.document().path("stringData").path("password").asText()).isEqualTo(PASSWORD);
    assertThat(withFirst.sopsVersion()).isEqualTo(
        TestBedBinaries.versions().getProperty("SOPS_VERSION").substring(1));
  }

  @Test
  void fluxsEncryptedRegexLayoutHashesTheUnencryptedFieldsAsSopsDoes() throws Exception {
    AgeKey only = identity("only");
    byte[] encrypted = encrypt(List.of("--age", only.recipient(), "--encrypted-regex", "^(data|stringData)$"));

    DecryptedDocument decrypted = SopsFile.decrypt("db.sops.yaml", encrypted, keys(only));

    assertThat(new String(encrypted, StandardCharsets.UTF_8)).contains("name: db").doesNotContain(PASSWORD);
    assertThat(normalized(decrypted.document())).isEqualTo(sopsDecrypt(encrypted, only));
  }

  @Test
  void anIdentityOfNeitherRecipientIsNoMatchAndAFlippedByteIsRefusedWithoutTheValue() throws Exception {
    AgeKey first = identity("first");
    AgeKey stranger = identity("stranger");
    byte[] encrypted = encrypt(List.of("--age", first.recipient()));

    SopsException noMatch = catchThrowableOfType(
        () -> SopsFile.decrypt("db.sops.yaml", encrypted, keys(stranger)), SopsException.class);
    assertThat(noMatch.reason()).isEqualTo(SopsException.Reason.NO_MATCHING_IDENTITY);

    byte[] tampered = Fixtures.flipDataByte(new String(encrypted, StandardCharsets.UTF_8), "password")
        .getBytes(StandardCharsets.UTF_8);
    SopsException flipped = catchThrowableOfType(
        () -> SopsFile.decrypt("db.sops.yaml", tampered, keys(first)), SopsException.class);
    assertThat(flipped.reason()).isEqualTo(SopsException.Reason.VALUE_TAMPERED);
    assertThat(flipped.path()).isEqualTo("stringData.password");
    assertThat(flipped.getMessage()).doesNotContain(PASSWORD);
  }

  @Test
  void theSecretToApplyHoldsWhatSopsEncryptedAndItsDigestMovesWithTheContentNotTheEncryption() throws Exception {
    AgeKey first = identity("first");
    AgeKey second = identity("second");
    Path file = dir.resolve("db.sops.yaml");
    Files.write(file, encrypt(APPLIED, List.of("--age", first.recipient())));
    DecryptedSecret original = decrypted(file, first);

    Tool.ok(dir, Map.of("SOPS_AGE_KEY_FILE", first.file().toString()), new byte[0], List.of(tools.sops().toString(),
        "rotate", "-i", "--add-age", second.recipient(), file.toString()));
    DecryptedSecret rotated = decrypted(file, second);
    Tool.ok(dir, Map.of("SOPS_AGE_KEY_FILE", first.file().toString()), new byte[0], List.of(tools.sops().toString(),
        "set", file.toString(), "[\"stringData\"][\"password\"]", "\"changed-" + PASSWORD + "\""));
    DecryptedSecret changed = decrypted(file, first);

    assertThat(original.secret().getData()).containsOnly(Map.entry("password", base64(PASSWORD)),
        Map.entry("token", "c2VjcmV0LXRva2Vu"));
    assertThat(original.secret().getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(rotated.recipient()).isEqualTo(second.recipient());
    assertThat(rotated.digest()).as("a new data key and a new recipient, the same content").isEqualTo(
        original.digest());
    assertThat(changed.digest()).isNotEqualTo(original.digest());
    assertThat(changed.secret().getData()).containsEntry("password", base64("changed-" + PASSWORD));
  }

  private DecryptedSecret decrypted(Path file, AgeKey identity) throws Exception {
    List<DecryptedSecret> secrets = SecretDecryptor.decrypt(List.of(new EncryptedDocument("db.sops.yaml", 1,
        Files.readAllBytes(file))), AgeIdentities.parse("identity", Files.readString(identity.file())), "shop");
    assertThat(secrets).hasSize(1);
    return secrets.get(0);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private AgeKey identity(String name) {
    return tools.newIdentity(dir.resolve(name + ".agekey"));
  }

  private byte[] encrypt(List<String> options) throws IOException {
    return encrypt(SECRET, options);
  }

  private byte[] encrypt(String plaintext, List<String> options) throws IOException {
    Path plain = dir.resolve("db.yaml");
    Files.writeString(plain, plaintext);
    List<String> argv = new ArrayList<>(List.of(tools.sops().toString(), "encrypt"));
    argv.addAll(options);
    argv.add(plain.toString());
    return Tool.ok(dir, Map.of(), new byte[0], argv);
  }

  private JsonNode sopsDecrypt(byte[] encrypted, AgeKey identity) throws IOException {
    Path file = dir.resolve("db.sops.yaml");
    Files.write(file, encrypted);
    return JSON.readTree(Tool.ok(dir, Map.of("SOPS_AGE_KEY_FILE", identity.file().toString()), new byte[0],
        List.of(tools.sops().toString(), "decrypt", "--output-type", "json", file.toString())));
  }

  private AgeCliKeys keys(AgeKey identity) {
    return new AgeCliKeys(tools.age(), dir, List.of(identity.file()));
  }

  /** Jackson's trees compare number nodes by their Java type; both sides are read back from JSON text. */
  private static JsonNode normalized(JsonNode tree) throws IOException {
    return JSON.readTree(JSON.writeValueAsString(tree));
  }
}
