package io.gitfn.registry;

import java.util.Objects;

/**
 * An image in a registry: {@code registry/repository} and a tag or a digest.
 *
 * @param registry host and optional port, for example {@code registry.example.com:5000}
 * @param repository the path below it, for example {@code team/orders}
 * @param reference a tag, or {@code sha256:} and 64 hex digits
 */
public record ImageName(String registry, String repository, String reference) {

  public ImageName {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(reference, "reference");
  }

  /** The same repository at another tag or digest. */
  public ImageName at(String otherReference) {
    return new ImageName(registry, repository, otherReference);
  }

  @Override
  public String toString() {
    return registry + "/" + repository + (reference.startsWith("sha256:") ? "@" : ":") + reference;
  }
}
