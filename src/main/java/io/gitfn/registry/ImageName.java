package io.gitfn.registry;

import io.gitfn.build.ImageReference;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An image in a registry: {@code registry/repository} and a tag or a digest.
 *
 * @param registry host and optional port, for example {@code registry.example.com:5000}
 * @param repository the path below it, for example {@code team/orders}
 * @param reference a tag, or {@code sha256:} and 64 hex digits
 */
public record ImageName(String registry, String repository, String reference) {

  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  public ImageName {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(reference, "reference");
  }

  /**
   * Parses {@code <registry>/<repository>:<tag>} or {@code <registry>/<repository>@sha256:<64 hex digits>}. The
   * registry is always named, as {@link ImageReference#parse} requires.
   *
   * @throws IllegalArgumentException with the image and what is wrong with it
   */
  public static ImageName parse(String image) {
    int at = image == null ? -1 : image.indexOf('@');
    if (at < 0) {
      ImageReference tagged = ImageReference.parse(image);
      return new ImageName(tagged.registry(), tagged.repository(), tagged.tag());
    }
    String name = image.substring(0, at);
    String digest = image.substring(at + 1);
    if (!DIGEST.matcher(digest).matches()) {
      throw new IllegalArgumentException("image `" + image + "`: the digest is not sha256: and 64 hex digits");
    }
    if (name.lastIndexOf(':') > name.lastIndexOf('/')) {
      throw new IllegalArgumentException("image `" + image + "` has both a tag and a digest; name one");
    }
    ImageReference named = ImageReference.parse(name + ":by-digest");
    return new ImageName(named.registry(), named.repository(), digest);
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
