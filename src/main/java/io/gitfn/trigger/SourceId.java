package io.gitfn.trigger;

import java.util.Objects;

/** Names a tracked source: the resource that tracks it, such as {@code FunctionRepository/team-a/infra}. */
public record SourceId(String kind, String namespace, String name) {

  public SourceId {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  @Override
  public String toString() {
    return kind + "/" + namespace + "/" + name;
  }
}
