package io.gitfn.reconcile.sync;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Whether a live object already holds every value a desired one sets. Extra fields on the live side are fine:
 * the API server adds defaults (such as {@code spec.replicas: 1}), and other field managers own fields gitfn
 * never sends.
 */
final class SubTree {

  /** True when every field of {@code desired} is present in {@code live} with the same value, recursively. */
  static boolean contains(Object live, Object desired) {
    if (desired == null) {
      return true; // gitfn never sends a null; a missing field is "not set" on both sides
    }
    if (desired instanceof Map<?, ?> wanted) {
      if (!(live instanceof Map<?, ?> actual)) {
        return false;
      }
      for (Map.Entry<?, ?> entry : wanted.entrySet()) {
        if (entry.getValue() != null && !contains(actual.get(entry.getKey()), entry.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof List<?> wanted) {
      // Lists in the Function schema are atomic: gitfn owns each one whole, so its length must match.
      if (!(live instanceof List<?> actual) || actual.size() != wanted.size()) {
        return false;
      }
      for (int i = 0; i < wanted.size(); i++) {
        if (!contains(actual.get(i), wanted.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof Number wanted) {
      // JSON read back from the server may give Long or Double where the desired object holds an Integer.
      return live instanceof Number actual
          && new BigDecimal(wanted.toString()).compareTo(new BigDecimal(actual.toString())) == 0;
    }
    return desired.equals(live);
  }

  private SubTree() {}
}
