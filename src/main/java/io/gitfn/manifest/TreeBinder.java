package io.gitfn.manifest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Optional;

/** Turns a checked YAML tree into API objects, reporting a field of the wrong type at its line. */
final class TreeBinder {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .build();

  private static final KnownFields KNOWN = new KnownFields(MAPPER);

  private TreeBinder() {}

  /** Every field of {@code tree} (at {@code path}) that {@code type} has not, as an error. */
  static void checkFields(YamlDocument document, JsonNode tree, Class<?> type, String path,
      List<ManifestError> errors) {
    checkFields(document, tree, MAPPER.constructType(type), path, errors);
  }

  static void checkFields(YamlDocument document, JsonNode tree, JavaType type, String path,
      List<ManifestError> errors) {
    for (KnownFields.Unknown unknown : KNOWN.unknown(tree, type, path)) {
      errors.add(document.error(unknown.field(), "unknown field `" + lastName(unknown.field())
          + "`; a typo? Known here: " + String.join(", ", unknown.known())));
    }
  }

  /** {@code tree} as a {@code type}, or empty with an error naming the field whose value does not fit. */
  static <T> Optional<T> bind(YamlDocument document, JsonNode tree, Class<T> type, String path,
      List<ManifestError> errors) {
    return bind(document, tree, MAPPER.constructType(type), path, errors);
  }

  static <T> Optional<T> bind(YamlDocument document, JsonNode tree, JavaType type, String path,
      List<ManifestError> errors) {
    try {
      return Optional.of(MAPPER.treeToValue(tree, type));
    } catch (JsonMappingException e) {
      String field = fieldOf(path, e.getPath());
      errors.add(document.error(field, "has a value of the wrong type: " + e.getOriginalMessage()));
      return Optional.empty();
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      errors.add(document.error(path.isEmpty() ? null : path, "cannot be read: " + e.getMessage()));
      return Optional.empty();
    }
  }

  static JavaType listOf(Class<?> element) {
    return MAPPER.getTypeFactory().constructCollectionType(List.class, element);
  }

  static JavaType stringMap() {
    return MAPPER.getTypeFactory().constructMapType(java.util.Map.class, String.class, String.class);
  }

  private static String fieldOf(String path, List<JsonMappingException.Reference> references) {
    StringBuilder field = new StringBuilder(path);
    for (JsonMappingException.Reference reference : references) {
      if (reference.getFieldName() != null) {
        field.append(field.length() == 0 ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        field.append('[').append(reference.getIndex()).append(']');
      }
    }
    return field.toString();
  }

  private static String lastName(String field) {
    int dot = field.lastIndexOf('.');
    return dot < 0 ? field : field.substring(dot + 1);
  }
}
