package io.gitfn.source;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where mirrors live and the limits of every Git operation.
 *
 * @param cacheDir the directory of all mirrors
 * @param diskBudgetBytes above this, mirrors not in use are evicted, least recently used first
 * @param timeout how long one network operation (an ls-remote, a fetch) may take from start to end; JGit also applies
 *     it to each read and write on the connection
 * @param maxRepositoryBytes a fetch that would make a mirror larger fails and the mirror is deleted
 * @param maxFileBytes a larger file is not read
 */
public record SourceSettings(
    Path cacheDir, long diskBudgetBytes, Duration timeout, long maxRepositoryBytes, long maxFileBytes) {

  public static final long GIB = 1L << 30;
  public static final long MIB = 1L << 20;

  public SourceSettings {
    Objects.requireNonNull(cacheDir, "cacheDir");
    Objects.requireNonNull(timeout, "timeout");
    if (diskBudgetBytes <= 0 || maxRepositoryBytes <= 0 || maxFileBytes <= 0) {
      throw new IllegalArgumentException("source limits must be positive");
    }
    if (timeout.isNegative() || timeout.toSeconds() < 1) {
      throw new IllegalArgumentException("the Git timeout must be at least one second, not " + timeout);
    }
  }

  /** A 10 GiB cache, 60 s per operation, repositories up to 1 GiB and files up to 10 MiB. */
  public static SourceSettings defaults(Path cacheDir) {
    return new SourceSettings(cacheDir, 10 * GIB, Duration.ofSeconds(60), GIB, 10 * MIB);
  }

  public SourceSettings withMaxRepositoryBytes(long bytes) {
    return new SourceSettings(cacheDir, diskBudgetBytes, timeout, bytes, maxFileBytes);
  }

  public SourceSettings withMaxFileBytes(long bytes) {
    return new SourceSettings(cacheDir, diskBudgetBytes, timeout, maxRepositoryBytes, bytes);
  }

  public SourceSettings withDiskBudgetBytes(long bytes) {
    return new SourceSettings(cacheDir, bytes, timeout, maxRepositoryBytes, maxFileBytes);
  }

  public SourceSettings withTimeout(Duration newTimeout) {
    return new SourceSettings(cacheDir, diskBudgetBytes, newTimeout, maxRepositoryBytes, maxFileBytes);
  }
}
