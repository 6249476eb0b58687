package io.gitfn.manifest;

import static io.gitfn.manifest.ManifestReaderTest.errors;
import static io.gitfn.manifest.ManifestReaderTest.function;
import static io.gitfn.manifest.ManifestReaderTest.names;
import static io.gitfn.manifest.ManifestReaderTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.gitfn.secrets.sops.Fixtures;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * SOPS-encrypted Secrets in a revision: kept as their files hold them, for {@code io.gitfn.secrets} to decrypt, one
 * per file; a Secret in plain text is never kept. The encrypted files are the ones the real sops wrote
 * ({@code src/test/resources/io/gitfn/secrets/sops}).
 */
class EncryptedSecretReaderTest {

  @Test
  void anEncryptedSecretIsKeptByteForByteWithItsFileAndLine() throws Exception {
    byte[] defaults = Fixtures.bytes("orders-db.sops.yaml");
    byte[] fluxLayout = Fixtures.bytes("orders-db-flux.sops.yaml");

    Manifest manifest = read(new FakeTree()
        .bytes("functions/secrets/db.sops.yaml", defaults)
        .bytes("functions/secrets/db-flux.yaml", fluxLayout)
        .file("functions/hello.yaml", function("hello")));

    assertThat(names(manifest)).containsExactly("hello");
    assertThat(manifest.notices()).isEmpty();
    assertThat(manifest.encryptedSecrets()).containsExactly(
        new EncryptedDocument("functions/secrets/db-flux.yaml", 1, fluxLayout),
        new EncryptedDocument("functions/secrets/db.sops.yaml", 1, defaults));
  }

  @Test
  void sopsDefaultsEncryptKindAndApiVersionSoAnEncryptedKindIsKeptToBeCheckedOnceDecrypted() throws Exception {
    String defaults = Fixtures.text("orders-db.sops.yaml");

    assertThat(defaults).startsWith("apiVersion: ENC[").contains("\nkind: ENC[");
    assertThat(read(FakeTree.of("functions/db.yaml", defaults)).encryptedSecrets()).hasSize(1);
  }

  @Test
  void aSecretInPlainTextIsNoticedAndNotKeptBecauseASecretInGitMustBeEncrypted() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/db.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: in-the-clear\n"));

    assertThat(manifest.encryptedSecrets()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/db.yaml:2: a Secret (v1) in plain text; ignored: a Secret in Git must be encrypted with SOPS"
            + " (see docs/security.md#encrypted-secrets)");
  }

  @Test
  void aSopsDocumentSharingItsFileWithAnotherIsInvalidNamingTheFileAndLine() throws Exception {
    String encrypted = Fixtures.text("orders-db-flux.sops.yaml");

    assertThat(errors(FakeTree.of("functions/db.yaml", function("hello") + "---\n" + encrypted)))
        .singleElement().asString()
        .startsWith("functions/db.yaml:" + (function("hello").split("\n").length + 2 + sopsLine(encrypted)) + ": ")
        .contains("a SOPS-encrypted Secret in a file of 2 YAML documents; sops encrypts a file whole, so give each"
            + " encrypted Secret a file of its own");
  }

  @Test
  void anEncryptedDocumentOfAnotherKindIsNoticedAndIgnored() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/settings.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: ENC[AES256_GCM,data:x]\n"
            + "sops:\n  version: 3.13.3\n"));

    assertThat(manifest.encryptedSecrets()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString).containsExactly(
        "functions/settings.yaml:2: a ConfigMap (v1) encrypted with SOPS; gitfn decrypts Secrets (v1) only; ignored");
  }

  @Test
  void aSopsFileOfNoKindIsNotASecretAndStaysANotice() throws Exception {
    Manifest manifest = read(FakeTree.of("functions/app.enc.yaml",
        "password: ENC[AES256_GCM,data:x]\nsops:\n  version: 3.13.3\n---\nother: 1\n"));

    assertThat(manifest.encryptedSecrets()).isEmpty();
    assertThat(manifest.notices()).extracting(ManifestNotice::toString)
        .allSatisfy(notice -> assertThat(notice).contains("no kind, not a Kubernetes object; ignored"));
  }

  @Test
  void anEncryptedSecretLargerThanASecretMayBeIsInvalidBeforeAnyKeyIsTried() {
    String large = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: big\ndata:\n  blob: ENC[AES256_GCM,data:"
        + "A".repeat(EncryptedSecretReader.MAX_BYTES) + "]\nsops:\n  version: 3.13.3\n";

    assertThat(errors(FakeTree.of("functions/big.yaml", large))).containsExactly("functions/big.yaml: is a"
        + " SOPS-encrypted Secret of " + large.length() + " bytes; gitfn decrypts files of at most 1048576 bytes"
        + " (1 MiB, the most a Secret holds)");
  }

  @Test
  void anEncryptedSecretCountsAgainstTheRevisionsReadBudget() throws Exception {
    byte[] encrypted = Fixtures.bytes("orders-db.sops.yaml");

    assertThat(errors(new FakeTree().bytes("functions/db.yaml", encrypted),
        ManifestOptions.defaults().withMaxReadBytes(encrypted.length - 1)))
        .singleElement().asString().startsWith("functions: holds more than " + (encrypted.length - 1) + " bytes");
  }

  @Test
  void anEncryptedDocumentHoldsACopyOfItsBytesAndDoesNotPrintThem() {
    byte[] content = "sops: {}\nsecret: value\n".getBytes(StandardCharsets.UTF_8);
    EncryptedDocument document = new EncryptedDocument("db.yaml", 1, content);

    content[0] = 'X';
    document.content()[1] = 'X';

    assertThat(document.content()).startsWith("sops".getBytes(StandardCharsets.UTF_8));
    assertThat(document).hasToString("EncryptedDocument[db.yaml:1, " + content.length + " bytes]");
  }

  private static int sopsLine(String text) {
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].equals("sops:")) {
        return i;
      }
    }
    throw new IllegalArgumentException("no sops block");
  }
}
