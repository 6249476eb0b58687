package io.gitfn.trigger.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The delivery ids accepted within the dedupe window, oldest first. Bounded: past {@code capacity} ids the
 * oldest is forgotten early, so a flood of unique ids costs memory for {@code capacity} ids at most.
 */
final class RecentDeliveries {

  static final int DEFAULT_CAPACITY = 10_000;

  private final Clock clock;
  private final Duration window;
  private final int capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<String, Instant> seen = new LinkedHashMap<>();

  RecentDeliveries(Clock clock, Duration window, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.clock = clock;
    this.window = window;
    this.capacity = capacity;
  }

  /**
   * Claims a delivery id: true the first time within the window, false for a repeat. One call decides, so two
   * concurrent copies of a delivery cannot both be accepted.
   */
  boolean claim(String id) {
    Instant now = clock.instant();
    lock.lock();
    try {
      forgetExpired(now);
      Instant at = seen.get(id);
      if (at != null) {
        return false;
      }
      seen.put(id, now);
      if (seen.size() > capacity) {
        Iterator<String> oldest = seen.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return seen.size();
    } finally {
      lock.unlock();
    }
  }

  private void forgetExpired(Instant now) {
    Instant cutoff = now.minus(window);
    Iterator<Map.Entry<String, Instant>> it = seen.entrySet().iterator();
    // Insertion order is time order, so the scan stops at the first id still inside the window.
    while (it.hasNext()) {
      if (it.next().getValue().isAfter(cutoff)) {
        return;
      }
      it.remove();
    }
  }
}
