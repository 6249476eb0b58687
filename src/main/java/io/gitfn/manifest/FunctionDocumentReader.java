package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gitfn.api.function.Function;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Format 1: every document of kind Function in a {@code .yaml}/{@code .yml} file. Of the kinds the controller allows
 * beside Functions ({@link AllowedKinds}), a SOPS-encrypted Secret is kept as its file holds it
 * ({@link EncryptedSecretReader}), a ConfigMap once checked ({@link ConfigMapReader}), any other (a route) once its
 * metadata is checked ({@link ObjectReader}); documents of other kinds are noticed and skipped. A Function document must match the schema exactly, so a misspelt field is
 * an error.
 */
final class FunctionDocumentReader {

  static final String API_VERSION = Function.GROUP + "/" + Function.VERSION;

  private final AllowedKinds allowed;

  FunctionDocumentReader(AllowedKinds allowed) {
    this.allowed = allowed;
  }

  List<Candidate> read(String file, String text, List<ManifestError> errors, List<ManifestNotice> notices,
      List<EncryptedDocument> secrets, List<DeclaredConfigMap> configMaps, List<DeclaredObject> objects) {
    List<Candidate> candidates = new ArrayList<>();
    List<YamlDocument> documents = YamlFile.parse(file, text, errors);
    for (YamlDocument document : documents) {
      JsonNode tree = document.tree();
      String kind = tree.path("kind").asText("");
      String apiVersion = tree.path("apiVersion").asText("");
      if (!tree.isObject() || kind.isEmpty()) {
        notices.add(new ManifestNotice(file, document.lines().documentLine(),
            "a YAML document with no kind, not a Kubernetes object; ignored"));
        continue;
      }
      // SOPS may encrypt kind and apiVersion too: such a document is a Secret, told once decrypted.
      boolean sops = EncryptedSecretReader.isSops(tree);
      ObjectType type = sops ? ObjectType.SECRET : new ObjectType(apiVersion, kind);
      boolean function = !sops && kind.equals("Function") && apiVersion.startsWith(Function.GROUP + "/");
      if (!function && !allowed.allows(type)) {
        notices.add(new ManifestNotice(file, document.line("kind"), MetadataReader.withArticle(type.kind()) + " ("
            + type.apiVersion()
            + "), which the controller does not apply: it takes Functions and " + allowed.shown() + "; ignored"));
        continue;
      }
      if (sops) {
        EncryptedSecretReader.read(document, documents.size(), text, errors, notices)
            .ifPresent(secrets::add);
        continue;
      }
      if (kind.equals("Secret") && apiVersion.equals("v1")) {
        notices.add(EncryptedSecretReader.plainSecret(document));
        continue;
      }
      if (ConfigMapReader.isConfigMap(tree)) {
        ConfigMapReader.read(document, errors).ifPresent(configMaps::add);
        continue;
      }
      if (!function) {
        ObjectReader.read(document, errors).ifPresent(objects::add);
        continue;
      }
      if (!apiVersion.equals(API_VERSION)) {
        errors.add(document.error("apiVersion", "`" + apiVersion + "` is not supported; gitfn reads Functions of "
            + API_VERSION + " (convert v1alpha1 Functions to it)"));
        continue;
      }
      read(document, errors).ifPresent(candidates::add);
    }
    return candidates;
  }

  private java.util.Optional<Candidate> read(YamlDocument document, List<ManifestError> errors) {
    ObjectNode tree = ((ObjectNode) document.tree()).deepCopy();
    Set<String> reported = new HashSet<>();
    JsonNode spec = tree.path("spec");
    if (spec.path("runtime").isValueNode() && Runtimes.parse(spec.path("runtime").asText()).isEmpty()) {
      errors.add(document.error("spec.runtime", Runtimes.unsupported(spec.path("runtime").asText())));
      ((ObjectNode) spec).remove("runtime");
      reported.add("spec.runtime");
    }
    JsonNode auth = spec.path("source").path("gitRepository").path("auth");
    if (auth.path("type").isValueNode() && Runtimes.parseAuth(auth.path("type").asText()).isEmpty()) {
      errors.add(document.error("spec.source.gitRepository.auth.type", Runtimes.unsupportedAuth(auth.path("type")
          .asText())));
      ((ObjectNode) auth).remove("type");
      reported.add("spec.source.gitRepository.auth.type");
    }
    TreeBinder.checkFields(document, tree, Function.class, "", errors);
    return TreeBinder.bind(document, tree, Function.class, "", errors)
        .map(function -> {
          // Status is the cluster's to write; a Function exported with kubectl keeps it, gitfn never applies it.
          function.setStatus(null);
          return new Candidate(function, new DocumentOrigin(document), reported);
        });
  }
}
