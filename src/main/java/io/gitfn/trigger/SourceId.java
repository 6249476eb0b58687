package io.gitfn.trigger;

import java.util.Objects;

/** Names a tracked source: the resource that tracks it, such as {@code FunctionRepository/team-a/infra}. */
public record SourceId(String kind, String namespace, String name) {

  public SourceId {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The id {@link #toString} wrote, or empty when {@code text} is not one. */
  public static java.util.Optional<SourceId> parse(String text) {
    String[] parts = text == null ? new String[0] : text.split("/", -1);
    return parts.length == 3 && !parts[0].isEmpty() && !parts[1].isEmpty() && !parts[2].isEmpty()
        ? java.util.Optional.of(new SourceId(parts[0], parts[1], parts[2])) : java.util.Optional.empty();
  }

  @Override
  public String toString() {
    return kind + "/" + namespace + "/" + name;
  }
}
