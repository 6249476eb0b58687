package io.gitfn.trigger;

import io.gitfn.source.Revision;
import io.gitfn.source.SourceException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * What the watcher tells whoever tracks a source about it ({@link SourceWatcher#track}). Called from the watcher's
 * check threads.
 */
public interface SourceEvents {

  /** Listens to nothing. */
  SourceEvents NOBODY = wakeUp(id -> {});

  /**
   * Runs {@code wake} for every revision and failure: for a reconciler, whose pass reads what the watcher knows
   * from {@link SourceWatcher#state}.
   */
  static SourceEvents wakeUp(Consumer<SourceId> wake) {
    return new SourceEvents() {
      @Override
      public void revision(SourceId source, Revision revision, String cause) {
        wake.accept(source);
      }

      @Override
      public void failed(SourceId source, SourceException error, Duration retryIn) {
        wake.accept(source);
      }
    };
  }

  /** The tracked ref points at a new revision, and its commit is in the local mirror. */
  void revision(SourceId source, Revision revision, String cause);

  /**
   * A check failed. The source keeps its last good revision; the watcher retries in {@code retryIn}
   * (sooner when a webhook or manual trigger arrives).
   */
  void failed(SourceId source, SourceException error, Duration retryIn);
}
