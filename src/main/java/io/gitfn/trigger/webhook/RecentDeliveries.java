package io.gitfn.trigger.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The delivery ids accepted within the dedupe window, oldest first. Bounded: past {@code capacity} ids the
 * oldest is forgotten early, and an id longer than {@link #MAX_KEPT} characters is kept as its SHA-256, so a flood
 * of unique ids costs memory for {@code capacity} short ids at most.
 */
final class RecentDeliveries {

  static final int DEFAULT_CAPACITY = 10_000;
  static final int MAX_KEPT = 128;

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
  boolean claim(String delivery) {
    String id = delivery.length() <= MAX_KEPT ? delivery : sha256(delivery);
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

  /** The characters of every id kept, which is what the ids cost. */
  int keptCharacters() {
    lock.lock();
    try {
      return seen.keySet().stream().mapToInt(String::length).sum();
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

  private static String sha256(String text) {
    try {
      return "sha256:" + HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
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
