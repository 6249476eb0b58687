package io.gitfn.build;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A tagged image as gitfn names it, {@code <registry>/<repository>:<tag>} (see {@link BuildJobSpec#image}), split
 * into the parts a registry's API asks for.
 *
 * @param registry host[:port], lower case, such as {@code registry.local:5000}
 * @param repository the path in the registry, such as {@code shop-hello}, or {@code acme/shop-hello} when the
 *     registry setting carries a path
 * @param tag the tag, such as the first 32 hex digits of a content key
 */
public record ImageReference(String registry, String repository, String tag) {

  // A DNS name or IPv4 address, or an IPv6 address in brackets, then an optional port.
  private static final Pattern REGISTRY = Pattern.compile(
      "([a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\\[[0-9a-f:.]+\\])(:[0-9]{1,5})?");
  // The OCI distribution spec's <name>: lower-case components joined by '/'.
  private static final Pattern REPOSITORY = Pattern.compile(
      "[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*");
  // containers/image transports that read an image from a file or local storage instead of a registry.
  private static final Pattern LOCAL_TRANSPORT =
      Pattern.compile("(oci-archive|oci|docker-archive|dir|containers-storage):");
  private static final String DOCKER_HUB = "docker.io";
  // The OCI distribution spec's <reference> for a tag.
  private static final Pattern TAG = Pattern.compile("[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}");

  public ImageReference {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(tag, "tag");
    registry = registry.toLowerCase(Locale.ROOT);
    if (!REGISTRY.matcher(registry).matches()) {
      throw new IllegalArgumentException("registry `" + registry + "` is not a host[:port]");
    }
    if (!REPOSITORY.matcher(repository).matches()) {
      throw new IllegalArgumentException("repository `" + repository
          + "` is not lower-case letters, digits and separators (., _, __, -) in components joined by /");
    }
    if (!TAG.matcher(tag).matches()) {
      throw new IllegalArgumentException("tag `" + tag
          + "` is not 1 to 128 letters, digits, _, . or -, starting with a letter, digit or _");
    }
  }

  /**
   * Parses {@code <registry>/<repository>:<tag>}. The first component must be a registry host: it has a dot or a
   * port, or is {@code localhost}. Without one, Docker would read the image as Docker Hub's, and gitfn always
   * names its registry.
   *
   * @throws IllegalArgumentException with the image and what is wrong with it
   */
  public static ImageReference parse(String image) {
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("an image reference must not be blank");
    }
    if (image.contains("@")) {
      throw new IllegalArgumentException("image `" + image + "` has a digest; gitfn's images are named by tag");
    }
    int slash = image.indexOf('/');
    if (slash < 0 || !looksLikeHost(image.substring(0, slash))) {
      throw new IllegalArgumentException("image `" + image
          + "` names no registry host; gitfn's images are <registry host[:port]>/<repository>:<tag>");
    }
    int colon = image.lastIndexOf(':');
    if (colon < slash) {
      throw new IllegalArgumentException("image `" + image + "` has no tag");
    }
    try {
      return new ImageReference(image.substring(0, slash), image.substring(slash + 1, colon),
          image.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("image `" + image + "`: " + e.getMessage(), e);
    }
  }

  /**
   * The registry host[:port] (lower case) that pulling {@code image} talks to, as a builder reads a {@code FROM}:
   * the first component when it looks like a host, else Docker Hub. Empty for an image the builder reads from a
   * file or its own storage ({@code oci-archive:/path}, {@code oci:}, {@code docker-archive:}, {@code dir:},
   * {@code containers-storage:}), which talks to no registry. Any other value is read as a name, so this never
   * fails: a wrong name fails the build, with the builder's message.
   */
  public static Optional<String> registryHostOf(String image) {
    String name = image.strip();
    if (name.startsWith("docker://")) {
      name = name.substring("docker://".length());
    } else if (LOCAL_TRANSPORT.matcher(name).lookingAt()) {
      return Optional.empty();
    }
    int slash = name.indexOf('/');
    String first = slash < 0 ? "" : name.substring(0, slash);
    return Optional.of(slash > 0 && looksLikeHost(first) ? first.toLowerCase(Locale.ROOT) : DOCKER_HUB);
  }

  /** Docker's rule for telling a registry host from a Docker Hub namespace. */
  private static boolean looksLikeHost(String component) {
    return component.contains(".") || component.contains(":") || component.equals("localhost");
  }

  @Override
  public String toString() {
    return registry + "/" + repository + ":" + tag;
  }
}
