package io.gitfn.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Answers the API server gave for a page, kept for a few seconds and shared by whoever looks: the pages of any
 * number of viewers, each re-asking every few seconds, make one call per key per {@code fresh}. It holds the newest
 * {@code kept} keys' answers.
 */
final class FreshAnswers<V> {

  private record Answer<V>(Instant at, V value) {}

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

  /** The answer for {@code key} if it is fresh, else a new one from {@code ask}. */
  V get(String key, Supplier<V> ask) {
    Instant now = clock.instant();
    synchronized (answers) {
      Answer<V> answer = answers.get(key);
      if (answer != null && now.isBefore(answer.at().plus(fresh))) {
        return answer.value();
      }
    }
    // Asked outside the lock: a slow answer about one Function holds up no other page.
    V value = ask.get();
    synchronized (answers) {
      answers.put(key, new Answer<>(now, value));
    }
    return value;
  }
}
