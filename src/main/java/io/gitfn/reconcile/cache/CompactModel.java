package io.gitfn.reconcile.cache;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shrinks the fabric8 model objects an informer cache holds. Every fabric8 model object, down to each env var,
 * port and quantity, carries a {@code LinkedHashMap} of its own for fields the model does not know, and it is
 * almost always empty: with a thousand Functions the controller's caches held about 230,000 of them, with an
 * entry-set view each, some 17 MiB of a 78 MiB live heap (the controller benchmark's heap histogram). An empty one
 * is replaced here by one shared immutable map.
 *
 * <p>Objects in an informer cache must not be changed anyway: they are shared with every reader. A cached object
 * that somebody did change this way fails loudly with {@link UnsupportedOperationException} instead of quietly
 * changing what every other reader sees.
 */
final class CompactModel {

  private static final Map<String, Object> NONE = Map.of();
  private static final int SHARED_FIELDS_NODES = 4096;
  // Least recently used first: the nodes that name one object (its owner's UID) age out; the common ones stay.
  private static final Map<Map<String, Object>, Map<String, Object>> FIELDS_NODES =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, Object>, Map<String, Object>> eldest) {
          return size() > SHARED_FIELDS_NODES;
        }
      };
  private static final String ADDITIONAL_PROPERTIES = "additionalProperties";
  // The fields of a model class worth walking: its own and its superclasses', without statics and primitives.
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> type) {
      List<Field> fields = new ArrayList<>();
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()
              && field.getType() != String.class && !field.getType().isEnum()) {
            field.setAccessible(true);
            fields.add(field);
          }
        }
      }
      return List.copyOf(fields);
    }
  };

  private CompactModel() {
  }

  /**
   * The same {@code fieldsV1} tree, made of shared nodes. A managed-fields entry is a tree of small maps, one per
   * field this manager applied, about 150 for a Deployment, and most of them empty leaves. The controller applies
   * the same fields to every Function's children, so a thousand cached Deployments hold a thousand nearly equal
   * trees, which were most of the maps left in the benchmark's heap. They differ only where a key names the
   * object (the owner reference's UID), so equal subtrees are shared, not whole trees: every empty leaf becomes the
   * one empty map and every other node the first equal node seen. Server-side-apply matching only reads them.
   */
  static FieldsV1 shared(FieldsV1 fields) {
    if (fields != null) {
      fields.setAdditionalProperties(sharedNode(fields.getAdditionalProperties()));
    }
    return fields;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> sharedNode(Map<String, Object> node) {
    if (node.isEmpty()) {
      return NONE;
    }
    Map<String, Object> copy = new LinkedHashMap<>((int) (node.size() / 0.75f) + 1);
    node.forEach((key, value) -> copy.put(key, value instanceof Map ? sharedNode((Map<String, Object>) value) : value));
    synchronized (FIELDS_NODES) {
      Map<String, Object> known = FIELDS_NODES.putIfAbsent(copy, copy);
      return known == null ? copy : known;
    }
  }

  /** Compacts {@code object} and everything it holds, in place, and returns it. */
  static <T extends KubernetesResource> T compact(T object) {
    visit(object);
    return object;
  }

  @SuppressWarnings("unchecked")
  private static void visit(Object value) {
    if (value instanceof KubernetesResource) {
      for (Field field : FIELDS.get(value.getClass())) {
        Object held = read(field, value);
        if (field.getName().equals(ADDITIONAL_PROPERTIES) && held instanceof Map) {
          Map<String, Object> additional = (Map<String, Object>) held;
          if (additional.isEmpty()) {
            write(field, value, NONE);
          } else {
            additional.forEach((key, property) -> visit(property));
          }
        } else {
          visit(held);
        }
      }
    } else if (value instanceof Collection) {
      ((Collection<?>) value).forEach(CompactModel::visit);
    } else if (value instanceof Map) {
      // forEach, not values(): a LinkedHashMap keeps the view it hands out, 16 bytes more in every cached map.
      ((Map<?, ?>) value).forEach((key, held) -> visit(held));
    }
  }

  private static Object read(Field field, Object owner) {
    try {
      return field.get(owner);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + field, e);
    }
  }

  private static void write(Field field, Object owner, Object value) {
    try {
      field.set(owner, value);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot write " + field, e);
    }
  }
}
