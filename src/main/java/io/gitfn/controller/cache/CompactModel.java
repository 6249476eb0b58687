package io.gitfn.controller.cache;

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
 * <p>Strings are the other large share: with 5,000 Functions they were 43 % of the live heap (1.1 million of them),
 * and most are the same few values again and again in every cached object (label values, images, names repeated in
 * a Function's children, probe paths, quantities, condition reasons). Jackson already interns field names, so map
 * keys are shared; every string value is replaced here by the JVM's interned copy, which the collector frees once no
 * cached object holds it.
 *
 * <p>The lists and maps of the model objects are the third share: every list field starts as an empty
 * {@code ArrayList}, and labels, annotations and selectors come as {@code LinkedHashMap}s, several dozen per
 * Function with its children. They are replaced by immutable copies of their exact size ({@link #frozen}); a map's
 * iteration order is then not the server's, which no reader of a cached object relies on (Kubernetes maps have no
 * order).
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
  // A Function's spec and status are gitfn's own classes, not fabric8 model objects.
  private static final String GITFN_API = "io.gitfn.api.";
  // Some model classes (Quantity) are not KubernetesResources.
  private static final String FABRIC8_MODEL = "io.fabric8.kubernetes.api.model.";
  // The fields of a model class worth walking: its own and its superclasses', without statics and primitives.
  private static final ClassValue<List<Field>> FIELDS = fields(type -> !type.isPrimitive() && type != String.class
      && !type.isEnum());
  // Its String fields: what intern() replaces.
  private static final ClassValue<List<Field>> STRINGS = fields(type -> type == String.class);

  private static ClassValue<List<Field>> fields(java.util.function.Predicate<Class<?>> typed) {
    return new ClassValue<>() {
      @Override
      protected List<Field> computeValue(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
          for (Field field : c.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers()) && typed.test(field.getType())) {
              field.setAccessible(true);
              fields.add(field);
            }
          }
        }
        return List.copyOf(fields);
      }
    };
  }

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
    boolean model = value instanceof KubernetesResource
        || value != null && value.getClass().getName().startsWith(FABRIC8_MODEL);
    if (model || value != null && value.getClass().getName().startsWith(GITFN_API)) {
      for (Field field : STRINGS.get(value.getClass())) {
        if (read(field, value) instanceof String text) {
          write(field, value, text.intern());
        }
      }
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
          Object frozen = model ? frozen(held) : held;
          if (frozen != held) {
            write(field, value, frozen);
          }
        }
      }
    } else if (value instanceof List<?> list) {
      if (list instanceof ArrayList<?> strings && !strings.isEmpty() && strings.get(0) instanceof String) {
        ((ArrayList<Object>) strings).replaceAll(item -> item instanceof String text ? text.intern() : item);
      }
      list.forEach(CompactModel::visit);
    } else if (value instanceof Collection) {
      ((Collection<?>) value).forEach(CompactModel::visit);
    } else if (value instanceof Map<?, ?> map) {
      // forEach and replaceAll, not values() or entrySet(): a HashMap keeps the view it hands out, 16 bytes more in
      // every cached map. Only a map that holds strings is written (labels, annotations, selectors); the shared
      // managed-fields nodes hold maps only, and are never written.
      boolean[] strings = {false};
      map.forEach((key, held) -> {
        strings[0] |= held instanceof String;
        visit(held);
      });
      if (strings[0] && map instanceof java.util.HashMap<?, ?>) {
        ((Map<Object, Object>) map).replaceAll((key, held) -> held instanceof String text ? text.intern() : held);
      }
    }
  }

  /**
   * An immutable copy of a model object's list or map, sized to what it holds: Jackson gives every list field an
   * {@code ArrayList} with room for ten, and every map (labels, annotations, selectors, resource quantities) a
   * {@code LinkedHashMap} with a table of sixteen and an entry object per item. Most are empty or hold one to three
   * items; an empty one becomes the shared empty list or map. One with a null in it stays as it is, as the immutable
   * copies refuse nulls. Only fabric8's model objects are frozen: gitfn's own types and the fields the model does not
   * know are left as Jackson made them.
   */
  private static Object frozen(Object held) {
    if (held instanceof ArrayList<?> list) {
      return list.isEmpty() ? List.of() : list.contains(null) ? list : List.copyOf(list);
    }
    if (held instanceof java.util.HashMap<?, ?> map) {
      if (map.isEmpty()) {
        return NONE;
      }
      return map.containsKey(null) || map.containsValue(null) ? map : Map.copyOf(map);
    }
    return held;
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
