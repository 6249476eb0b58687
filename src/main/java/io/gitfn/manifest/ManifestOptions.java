package io.gitfn.manifest;

/**
 * Limits of the manifest reader.
 *
 * @param maxSourceBytes the most bytes an inline Function's source and dependencies may have together. Both go
 *     into one ConfigMap, which Kubernetes caps at 1 MiB, next to a Dockerfile; the default leaves room for it.
 */
public record ManifestOptions(long maxSourceBytes) {

  public static final long DEFAULT_MAX_SOURCE_BYTES = 900L * 1024;

  public ManifestOptions {
    if (maxSourceBytes <= 0) {
      throw new IllegalArgumentException("maxSourceBytes must be positive, not " + maxSourceBytes);
    }
  }

  public static ManifestOptions defaults() {
    return new ManifestOptions(DEFAULT_MAX_SOURCE_BYTES);
  }
}
