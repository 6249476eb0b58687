package io.gitfn.cli;

import static io.gitfn.cli.RenderCommandTest.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.secrets.sops.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gitfn render} of a folder with SOPS-encrypted Secrets (the files the real sops wrote, in
 * {@code src/test/resources/io/gitfn/secrets/sops}): masked by default, decrypted in memory with
 * {@code --age-identity}, and a file that does not decrypt is an error naming it.
 */
class RenderSecretsTest {

  /** What orders-db.yaml holds under data and stringData, as text and as base64. */
  private static final List<String> PLAINTEXT = List.of("orders-db-password-1", "postgres://orders-db",
      "orders-db-token", base64("orders-db-password-1"), base64("orders-db-token"));

  @TempDir Path folder;
  @TempDir Path home;

  @BeforeEach
  void aFolderWithAFunctionAndAnEncryptedSecret() throws IOException {
    write("fns/a/handler.js", "module.exports = {};\n");
    write("fns/a/package.json", "{}\n");
    write("secrets/orders-db.yaml", Fixtures.text("orders-db-flux.sops.yaml"));
  }

  @Test
  void encryptedSecretsArePrintedFirstWithEveryValueMaskedAndNothingDecrypted() throws Exception {
    CliRun run = render(folder.toString(), "-o", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode secret = new ObjectMapper().readTree(run.out()).path("items").get(0);
    assertThat(secret.path("kind").asText()).isEqualTo("Secret");
    assertThat(secret.path("metadata").path("name").asText()).isEqualTo("orders-db");
    assertThat(secret.path("data").path("token").asText()).isEqualTo("<encrypted>");
    assertThat(secret.path("stringData").path("password").asText()).isEqualTo("<encrypted>");
    assertThat(run.err()).contains("notice: 1 encrypted Secret is printed with <encrypted> in place of each value;"
        + " --age-identity FILE decrypts them");
  }

  @Test
  void theMaskedOutputHoldsNoneOfThePlaintext() throws Exception {
    write("secrets/defaults.yaml", Fixtures.text("orders-db.sops.yaml"));

    CliRun run = render(folder.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("name: \"<encrypted>\"", "name: \"orders-db\"", "name: \"a\"");
    PLAINTEXT.forEach(value -> assertThat(run.out() + run.err()).doesNotContain(value));
  }

  @Test
  void withAgeIdentityTheSecretsAreDecryptedInMemoryAndPrintedAsTheyWouldBeApplied() throws Exception {
    CliRun run = render(folder.toString(), "--age-identity", identity("identity-2.agekey"), "-n", "shop", "-o",
        "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    JsonNode secret = new ObjectMapper().readTree(run.out()).path("items").get(0);
    assertThat(secret.path("metadata").path("namespace").asText()).isEqualTo("shop");
    assertThat(secret.path("data").path("password").asText()).isEqualTo(base64("orders-db-password-1"));
    assertThat(secret.path("data").path("token").asText()).isEqualTo(base64("orders-db-token"));
    assertThat(secret.has("stringData")).as("folded into data").isFalse();
  }

  @Test
  void aSecretOfAnotherNamespaceThanTheRepositorysIsRefusedSayingWhichNamespaceWasChecked() throws Exception {
    CliRun run = render(folder.toString(), "--age-identity", identity("identity-1.agekey"));

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("an encrypted Secret cannot be applied (InvalidSecret); nothing would be applied:",
        "secrets/orders-db.yaml: metadata.namespace: is `shop`, not `default`",
        "(checked as a FunctionRepository in namespace default would check them; -n NS names the repository's"
            + " namespace)");
  }

  @Test
  void aTamperedFileIsAMacMismatchNamingTheFileAndExitsOne() throws Exception {
    write("secrets/orders-db.yaml", Fixtures.flipDataByte(Fixtures.text("orders-db-flux.sops.yaml"), "token"));

    CliRun run = render(folder.toString(), "--age-identity", identity("identity-1.agekey"), "-n", "shop");

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("(MacMismatch)", "secrets/orders-db.yaml: data.token: does not decrypt");
    PLAINTEXT.forEach(value -> assertThat(run.err()).doesNotContain(value));
  }

  @Test
  void anIdentityOfNoRecipientIsNoMatchingIdentity() throws Exception {
    Path stranger = home.resolve("stranger.agekey");
    Files.writeString(stranger, "# public key: age1...\n"
        + "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX\n");

    CliRun run = render(folder.toString(), "--age-identity", stranger.toString(), "-n", "shop");

    assertThat(run.exitCode()).isEqualTo(RenderCommand.INVALID);
    assertThat(run.err()).contains("(NoMatchingIdentity)", "secrets/orders-db.yaml: sops.age: none of the 1 age"
        + " identities opens any of the file's 2 recipients");
  }

  @Test
  void anIdentityFileThatIsNoneOrTooLargeOrHoldsNoIdentityExitsTwo() throws Exception {
    Path large = home.resolve("large.agekey");
    Files.write(large, new byte[AgeIdentityFile.MAX_BYTES + 1]);
    Path recipient = home.resolve("recipient.txt");
    Files.writeString(recipient, Fixtures.recipient("identity-1.agekey") + "\n");

    CliRun missing = render(folder.toString(), "--age-identity", home.resolve("none").toString());
    CliRun tooLarge = render(folder.toString(), "--age-identity", large.toString());
    CliRun publicKey = render(folder.toString(), "--age-identity", recipient.toString());

    assertThat(List.of(missing.exitCode(), tooLarge.exitCode(), publicKey.exitCode()))
        .containsOnly(RenderCommand.UNREADABLE);
    assertThat(missing.err()).contains("cannot read --age-identity " + home.resolve("none") + ": is not a file");
    assertThat(tooLarge.err()).contains("larger than " + AgeIdentityFile.MAX_BYTES + " bytes");
    assertThat(publicKey.err()).contains("an age1 recipient, a public key");
  }

  @Test
  void namespaceIsANamespaceName() throws Exception {
    CliRun invalid = render(folder.toString(), "--age-identity", identity("identity-1.agekey"), "-n", "Shop!");

    assertThat(invalid.exitCode()).isEqualTo(RenderCommand.UNREADABLE);
    assertThat(invalid.err()).contains("--namespace: `Shop!` is not a namespace name");
  }

  private String identity(String fixture) throws IOException {
    Path file = home.resolve(fixture);
    Files.writeString(file, Fixtures.text(fixture));
    return file.toString();
  }

  private void write(String path, String text) throws IOException {
    Path file = folder.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
