package io.gitfn.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Optional;

/**
 * Reads an object of an allowed kind other than a ConfigMap or a Secret ({@link AllowedKinds}): a route, or what a
 * platform team allows. gitfn does not know such a kind's schema, so it checks only what every object shares, at its
 * lines: its metadata ({@link MetadataReader}), no key of the controller's, and no field the cluster sets. Its
 * {@code status} is the cluster's to write and is left out, as for a Function exported with kubectl. The rest is the
 * API server's to check, by the dry run that comes before any write of the revision.
 */
final class ObjectReader {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ObjectReader() {}

  static Optional<DeclaredObject> read(YamlDocument document, List<ManifestError> errors) {
    int before = errors.size();
    ObjectNode tree = ((ObjectNode) document.tree()).deepCopy();
    String kind = tree.path("kind").asText();
    MetadataReader.Read metadata = new MetadataReader(document, kind, errors).read();
    if (metadata == null || errors.size() > before) {
      return Optional.empty();
    }
    tree.remove("status");
    tree.remove("metadata");
    GenericKubernetesResource object = JSON.convertValue(tree, GenericKubernetesResource.class);
    object.setMetadata(new ObjectMetaBuilder().withName(metadata.name()).withNamespace(metadata.namespace())
        .withLabels(metadata.labels().isEmpty() ? null : metadata.labels())
        .withAnnotations(metadata.annotations().isEmpty() ? null : metadata.annotations()).build());
    return Optional.of(new DeclaredObject(document.file(), document.lines().documentLine(), object));
  }

  /** Whether {@code tree} is an object of {@code type}. */
  static boolean is(JsonNode tree, ObjectType type) {
    return tree.path("kind").asText("").equals(type.kind())
        && tree.path("apiVersion").asText("").equals(type.apiVersion());
  }
}
