package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Takes SOPS-encrypted Secrets out of a revision as their files hold them, for {@code io.gitfn.secrets} to decrypt.
 * A document is sops' when it has a top-level {@code sops} mapping, which no Kubernetes object has. With sops'
 * defaults even {@code kind} and {@code apiVersion} are encrypted (Flux's {@code encrypted_regex} layout leaves them
 * clear), so an encrypted kind is taken here and checked once decrypted.
 */
final class EncryptedSecretReader {

  /**
   * The size of SOPS file gitfn decrypts ({@code SopsLimits.DEFAULT}, which this pure package does not import),
   * checked here as well so that a file too large is an error of the revision, found without a key.
   */
  static final int MAX_BYTES = 1024 * 1024;
  static final String DOCS = "docs/security.md#encrypted-secrets";

  private EncryptedSecretReader() {}

  static boolean isSops(JsonNode tree) {
    return tree.path("sops").isObject();
  }

  /**
   * The encrypted Secret {@code document} is, or empty with an error (it cannot be applied) or a notice (it is not a
   * Secret) saying why.
   *
   * @param documents how many documents its file holds
   * @param text its file's text
   */
  static Optional<EncryptedDocument> read(YamlDocument document, int documents, String text,
      List<ManifestError> errors, List<ManifestNotice> notices) {
    String kind = document.tree().path("kind").asText("");
    String apiVersion = document.tree().path("apiVersion").asText("");
    if (!(kind.equals("Secret") || encrypted(kind)) || !(apiVersion.equals("v1") || encrypted(apiVersion))) {
      notices.add(new ManifestNotice(document.file(), document.line("kind"), (encrypted(kind) || encrypted(apiVersion)
          ? "a document" : "a " + kind + " (" + apiVersion + ")") + " encrypted with SOPS; gitfn decrypts Secrets"
          + " (v1) only; ignored"));
      return Optional.empty();
    }
    if (documents > 1) {
      // sops encrypts and authenticates a file whole: one MAC over every document.
      errors.add(new ManifestError(document.file(), document.line("sops"), null, "is a SOPS-encrypted Secret in a"
          + " file of " + documents + " YAML documents; sops encrypts a file whole, so give each encrypted Secret"
          + " a file of its own"));
      return Optional.empty();
    }
    // RevisionFiles decoded the file strictly, so encoding its text gives back its very bytes.
    byte[] content = text.getBytes(StandardCharsets.UTF_8);
    if (content.length > MAX_BYTES) {
      errors.add(new ManifestError(document.file(), 0, null, "is a SOPS-encrypted Secret of " + content.length
          + " bytes; gitfn decrypts files of at most " + MAX_BYTES + " bytes (1 MiB, the most a Secret holds)"));
      return Optional.empty();
    }
    return Optional.of(new EncryptedDocument(document.file(), document.lines().documentLine(), content));
  }

  /** What the reader says of a Secret in plain text: it is not applied, and why. */
  static ManifestNotice plainSecret(YamlDocument document) {
    return new ManifestNotice(document.file(), document.line("kind"), "a Secret (v1) in plain text; ignored: a Secret"
        + " in Git must be encrypted with SOPS (see " + DOCS + ")");
  }

  private static boolean encrypted(String value) {
    return value.startsWith("ENC[");
  }
}
