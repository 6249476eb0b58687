package io.gitfn.reconcile;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
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
            additional.values().forEach(CompactModel::visit);
          }
        } else {
          visit(held);
        }
      }
    } else if (value instanceof Collection) {
      ((Collection<?>) value).forEach(CompactModel::visit);
    } else if (value instanceof Map) {
      ((Map<?, ?>) value).values().forEach(CompactModel::visit);
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
