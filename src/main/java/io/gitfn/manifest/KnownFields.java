package io.gitfn.manifest;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the fields of a YAML tree that its Java type does not have. Jackson (and the Kubernetes model's
 * additionalProperties) would drop or keep them silently, and a typo like {@code minReplica} would be lost.
 * The fields come from the types themselves, so the check follows the API types as they change.
 */
final class KnownFields {

  private final ObjectMapper mapper;

  KnownFields(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The path of every field in {@code tree} that {@code type} does not know, with the fields it does. */
  List<Unknown> unknown(JsonNode tree, JavaType type, String path) {
    List<Unknown> found = new ArrayList<>();
    walk(tree, type, path, found);
    return found;
  }

  record Unknown(String field, Set<String> known) {}

  private void walk(JsonNode node, JavaType type, String path, List<Unknown> found) {
    if (node.isArray() && type.isCollectionLikeType()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), type.getContentType(), path + "[" + i + "]", found);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    if (type.isMapLikeType()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        walk(field.getValue(), type.getContentType(), path + "[" + field.getKey() + "]", found);
      }
      return;
    }
    if (!isBean(type)) {
      return;
    }
    BeanDescription bean = mapper.getDeserializationConfig().introspect(type);
    Map<String, JavaType> properties = new HashMap<>();
    for (BeanPropertyDefinition property : bean.findProperties()) {
      if (property.hasSetter() || property.hasField() || property.hasConstructorParameter()) {
        properties.put(property.getName(), property.getPrimaryType());
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
      JavaType fieldType = properties.get(field.getKey());
      if (fieldType == null) {
        found.add(new Unknown(child, new TreeSet<>(properties.keySet())));
      } else {
        walk(field.getValue(), fieldType, child, found);
      }
    }
  }

  private static boolean isBean(JavaType type) {
    Class<?> raw = type.getRawClass();
    return !raw.isPrimitive() && !raw.isEnum() && raw != Object.class && raw != String.class
        && !JsonNode.class.isAssignableFrom(raw) && raw != Quantity.class && raw != IntOrString.class
        && !raw.getName().startsWith("java.");
  }
}
