package io.gitfn.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Answers the API server gave for a page, kept for a few seconds and shared by whoever looks: the pages of any
 * number of viewers, each re-asking every few seconds, make at most one call per key per {@code fresh}, and never
 * two at once: a page that comes while the API server is still answering waits for that answer. It holds the newest
 * {@code kept} keys' answers.
 */
final class FreshAnswers<V> {

  /** An answer, or the call that will give it; fresh for {@code fresh} from when it was asked. */
  private record Answer<V>(Instant asked, CompletableFuture<V> value) {}

  private final Clock clock;
  private final Duration fresh;
  private final Map<String, Answer<V>> answers;

  FreshAnswers(Clock clock, Duration fresh, int kept) {
    this.clock = clock;
    this.fresh = fresh;
    this.answers = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Answer<V>> eldest) {
        return size() > kept;
      }
    };
  }

  /** The answer for {@code key} if it is fresh or being asked, else a new one from {@code ask}. */
  V get(String key, Supplier<V> ask) {
    Answer<V> shared;
    Answer<V> mine = null;
    synchronized (answers) {
      Instant now = clock.instant();
      shared = answers.get(key);
      if (shared == null || shared.value().isDone() && !now.isBefore(shared.asked().plus(fresh))) {
        mine = new Answer<>(now, new CompletableFuture<>());
        answers.put(key, mine);
      }
    }
    if (mine == null) {
      try {
        return shared.value().join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
    // Asked outside the lock: a slow answer about one Function holds up no other page.
    try {
      V value = ask.get();
      mine.value().complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      mine.value().completeExceptionally(e); // those waiting for it see the failure; the next page asks again
      synchronized (answers) {
        answers.remove(key, mine);
      }
      throw e;
    }
  }
}
