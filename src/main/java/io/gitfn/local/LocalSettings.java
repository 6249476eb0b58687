package io.gitfn.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@code gitfn up} runs.
 *
 * @param cache where runtimes, dependencies, builds, logs and Git mirrors are kept between runs
 * @param bind the address the proxy listens on
 * @param port the proxy's port (0 picks a free one)
 * @param interval how often the folder or the remote branch is looked at
 */
public record LocalSettings(Path cache, String bind, int port, Duration interval) {

  public LocalSettings {
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(bind, "bind");
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, was " + interval);
    }
  }
}
