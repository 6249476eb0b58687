package io.gitfn.api;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the CRDs the build generated onto the class path, and walks their schemas. */
public final class Crds {

  private Crds() {}

  /** The generated CRD of that name, such as {@code functions.serverless.kyma-project.io}. */
  public static CustomResourceDefinition load(String name) {
    String resource = "/META-INF/fabric8/" + name + "-v1.yml";
    try (InputStream in = Crds.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the class path; did the CRD generator run?");
      }
      return Serialization.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The one version a gitfn CRD serves. */
  public static CustomResourceDefinitionVersion onlyVersion(CustomResourceDefinition crd) {
    List<CustomResourceDefinitionVersion> versions = crd.getSpec().getVersions();
    if (versions.size() != 1) {
      throw new IllegalStateException(crd.getMetadata().getName() + " has " + versions.size() + " versions");
    }
    return versions.get(0);
  }

  /** The schema at a dotted path below the root, such as {@code spec.source.gitRepository}. */
  public static JSONSchemaProps schemaAt(CustomResourceDefinition crd, String dottedPath) {
    JSONSchemaProps schema = onlyVersion(crd).getSchema().getOpenAPIV3Schema();
    for (String property : dottedPath.split("\\.")) {
      if (property.equals("[]")) {
        schema = schema.getItems().getSchema();
        continue;
      }
      Map<String, JSONSchemaProps> properties = schema.getProperties();
      if (properties == null || !properties.containsKey(property)) {
        throw new IllegalArgumentException("no property " + property + " in " + dottedPath);
      }
      schema = properties.get(property);
    }
    return schema;
  }

  /** The messages of the CEL rules declared directly on that schema. */
  public static List<String> messagesAt(CustomResourceDefinition crd, String dottedPath) {
    return messagesOf(schemaAt(crd, dottedPath));
  }

  /** Every CEL rule message anywhere in the CRD's schema. */
  public static List<String> allMessages(CustomResourceDefinition crd) {
    List<String> found = new ArrayList<>();
    collect(onlyVersion(crd).getSchema().getOpenAPIV3Schema(), found);
    return found;
  }

  private static List<String> messagesOf(JSONSchemaProps schema) {
    List<ValidationRule> rules = schema.getXKubernetesValidations();
    return rules == null ? List.of() : rules.stream().map(ValidationRule::getMessage).toList();
  }

  private static void collect(JSONSchemaProps schema, List<String> found) {
    if (schema == null) {
      return;
    }
    found.addAll(messagesOf(schema));
    if (schema.getProperties() != null) {
      schema.getProperties().values().forEach(child -> collect(child, found));
    }
    if (schema.getItems() != null) {
      collect(schema.getItems().getSchema(), found);
    }
    if (schema.getAdditionalProperties() != null) {
      collect(schema.getAdditionalProperties().getSchema(), found);
    }
  }
}
