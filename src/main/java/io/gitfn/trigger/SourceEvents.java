package io.gitfn.trigger;

import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import java.time.Duration;

/** What the watcher tells the rest of gitfn about its sources. Called from the watcher's check threads. */
public interface SourceEvents {

  /** The tracked ref points at a new revision, and its commit is in the local mirror. */
  void revision(SourceId source, Revision revision, String cause);

  /**
   * A check failed. The source keeps its last good revision; the watcher retries in {@code retryIn}
   * (sooner when a webhook or manual trigger arrives).
   */
  void failed(SourceId source, SourceException error, Duration retryIn);
}
