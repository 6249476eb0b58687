package io.gitfn.manifest;

/**
 * Limits of the manifest reader.
 *
 * @param maxSourceBytes the most bytes an inline Function's source and dependencies may have together. Both go
 *     into one ConfigMap, which Kubernetes caps at 1 MiB, next to a Dockerfile; the default leaves room for it.
 * @param maxFiles the most files the repository's path may hold, ignored ones included: a revision with more is
 *     invalid, so that one repository's size costs bounded time and memory
 * @param maxReadBytes the most bytes of files the reader reads from one revision, all files together
 * @param maxFunctions the most Functions one revision may declare
 * @param maxConfigMaps the most ConfigMaps one revision may declare: a few bytes of YAML make one, and each is kept
 *     in memory until the revision is applied
 * @param maxObjects the most objects of other allowed kinds (routes) one revision may declare, for the same reason
 * @param allowedKinds the kinds a revision may declare beside Functions; others are notices
 */
public record ManifestOptions(long maxSourceBytes, int maxFiles, long maxReadBytes, int maxFunctions,
    int maxConfigMaps, int maxObjects, AllowedKinds allowedKinds) {

  public static final long DEFAULT_MAX_SOURCE_BYTES = 900L * 1024;
  /** A hundred times what an infra repository of a thousand Functions holds. */
  public static final int DEFAULT_MAX_FILES = 10_000;
  public static final long DEFAULT_MAX_READ_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_FUNCTIONS = 5_000;
  /** As many as Functions: the ones a Function reads, and a few shared. */
  public static final int DEFAULT_MAX_CONFIG_MAPS = 5_000;
  /** A route or two for each Function. */
  public static final int DEFAULT_MAX_OBJECTS = 10_000;

  public ManifestOptions {
    if (maxSourceBytes <= 0) {
      throw new IllegalArgumentException("maxSourceBytes must be positive, not " + maxSourceBytes);
    }
    if (maxFiles <= 0 || maxReadBytes <= 0 || maxFunctions <= 0 || maxConfigMaps <= 0 || maxObjects <= 0) {
      throw new IllegalArgumentException("manifest limits must be positive");
    }
    java.util.Objects.requireNonNull(allowedKinds, "allowedKinds");
  }

  public ManifestOptions(long maxSourceBytes) {
    this(maxSourceBytes, DEFAULT_MAX_FILES, DEFAULT_MAX_READ_BYTES, DEFAULT_MAX_FUNCTIONS, DEFAULT_MAX_CONFIG_MAPS,
        DEFAULT_MAX_OBJECTS, AllowedKinds.DEFAULT);
  }

  public static ManifestOptions defaults() {
    return new ManifestOptions(DEFAULT_MAX_SOURCE_BYTES);
  }

  public ManifestOptions withMaxFiles(int files) {
    return new ManifestOptions(maxSourceBytes, files, maxReadBytes, maxFunctions, maxConfigMaps, maxObjects,
        allowedKinds);
  }

  public ManifestOptions withMaxReadBytes(long bytes) {
    return new ManifestOptions(maxSourceBytes, maxFiles, bytes, maxFunctions, maxConfigMaps, maxObjects,
        allowedKinds);
  }

  public ManifestOptions withMaxFunctions(int functions) {
    return new ManifestOptions(maxSourceBytes, maxFiles, maxReadBytes, functions, maxConfigMaps, maxObjects,
        allowedKinds);
  }

  public ManifestOptions withMaxConfigMaps(int configMaps) {
    return new ManifestOptions(maxSourceBytes, maxFiles, maxReadBytes, maxFunctions, configMaps, maxObjects,
        allowedKinds);
  }

  public ManifestOptions withMaxObjects(int objects) {
    return new ManifestOptions(maxSourceBytes, maxFiles, maxReadBytes, maxFunctions, maxConfigMaps, objects,
        allowedKinds);
  }

  public ManifestOptions withAllowedKinds(AllowedKinds kinds) {
    return new ManifestOptions(maxSourceBytes, maxFiles, maxReadBytes, maxFunctions, maxConfigMaps, maxObjects,
        kinds);
  }
}
