package io.gitfn.source;

import java.nio.file.Path;
import org.eclipse.jgit.lib.EmptyProgressMonitor;

/**
 * Cancels a fetch once the mirror's object directory grows past a limit. JGit streams the incoming pack into
 * that directory and asks its progress monitor between objects whether to go on, so the size on disk is
 * checked there, at most every 20 ms.
 */
final class SizeGuard extends EmptyProgressMonitor {

  private static final long CHECK_EVERY_NANOS = 20_000_000L;

  private final Path objects;
  private final long limit;
  private long lastCheck = System.nanoTime() - CHECK_EVERY_NANOS;
  private volatile long lastSize;
  private volatile boolean exceeded;

  SizeGuard(Path objects, long limit) {
    this.objects = objects;
    this.limit = limit;
  }

  @Override
  public boolean isCancelled() {
    long now = System.nanoTime();
    if (!exceeded && now - lastCheck >= CHECK_EVERY_NANOS) {
      lastCheck = now;
      lastSize = Directories.sizeOf(objects);
      exceeded = lastSize > limit;
    }
    return exceeded;
  }

  boolean exceeded() {
    return exceeded;
  }

  long lastSize() {
    return lastSize;
  }
}
