package io.gitfn.reconcile.sync;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Comparator;

/** Which Function: its namespace and name. Prints as {@code <namespace>/<name>}, as kubectl does. */
record FunctionKey(String namespace, String name) implements Comparable<FunctionKey> {

  private static final Comparator<FunctionKey> ORDER =
      Comparator.comparing(FunctionKey::namespace).thenComparing(FunctionKey::name);

  static FunctionKey of(HasMetadata object) {
    return new FunctionKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  @Override
  public int compareTo(FunctionKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
