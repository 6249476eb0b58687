package io.gitfn.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Caps how many build Jobs run at once, cluster-wide, and shares the slots between namespaces.
 *
 * <p>A build that cannot start waits with a wake-up callback. When a running build finishes, the slot is handed
 * to a waiter and its callback runs, so a waiting Function is reconciled exactly when it can start; nobody polls. A
 * handed-over slot stays reserved for that build until it starts or is withdrawn, so a newcomer cannot take it in
 * between.
 *
 * <p>Fairness: a namespace may hold at most {@link #share} of the slots (all but one, when there are several), so
 * another namespace's build always finds one sooner or later, however many builds one tenant queues or however
 * long they run (the build deadline ends them). A freed slot goes to the waiter whose namespace holds the fewest
 * slots, the earliest arrival among those; within a namespace, builds start in arrival order.
 *
 * <p>Builds are named by their Job ({@code namespace/name}); the owner (the Function) lets a Function that moved on
 * to another key give up its place in one call. The queue lives in memory: after a restart the controller counts
 * the Jobs it finds running again through {@link #running}.
 */
public final class BuildQueue {

  /**
   * Where a build stands after {@link #admit}.
   *
   * @param taken slots running a build or handed to a waiter that is about to start one
   * @param namespaceHeld slots the build's namespace holds, of at most {@code share}
   */
  public record Admission(boolean started, int ahead, int taken, int limit, int namespaceHeld, int share) {

    /** How a waiting build reads in a condition message. */
    public String describe() {
      if (namespaceHeld >= share && taken < limit) {
        return "waiting for a build slot: this namespace holds " + namespaceHeld + " of the " + limit
            + ", the most one namespace may hold while others may need one";
      }
      return "waiting for a build slot: " + taken + " of " + limit + " are taken, " + ahead
          + (ahead == 1 ? " build is" : " builds are") + " ahead in the queue";
    }
  }

  private record Waiter(String job, Runnable wake) {}

  private final int limit;
  private final int share;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, String> running = new HashMap<>(); // job -> owner
  private final Set<String> reserved = new HashSet<>();
  private final Map<String, Waiter> waiting = new LinkedHashMap<>(); // owner -> its build, in arrival order

  public BuildQueue(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("the build limit must be at least 1, not " + limit);
    }
    this.limit = limit;
    this.share = Math.max(1, limit - 1);
  }

  /**
   * Asks to start {@code job} ({@code namespace/name}) for {@code owner}. Started means the caller creates the Job
   * now; otherwise the build waits, and {@code wake} runs once when a slot is handed to it. Asking again while
   * waiting keeps the place in the queue; asking for another job drops the owner's earlier request.
   */
  public Admission admit(String owner, String job, Runnable wake) {
    Objects.requireNonNull(wake, "wake");
    String namespace = namespace(job);
    List<Runnable> wakes;
    Admission admission;
    lock.lock();
    try {
      Waiter earlier = waiting.get(owner);
      if (earlier != null && !earlier.job().equals(job)) {
        waiting.remove(owner);
        reserved.remove(earlier.job());
      }
      if (running.containsKey(job)) {
        admission = admission(true, owner, namespace);
      } else if (reserved.remove(job) || free() > 0 && held(namespace) < share) {
        // A free slot that an eligible waiter could take has been handed over already (handOver runs after every
        // change), so what is free here is nobody's.
        waiting.remove(owner);
        running.put(job, owner);
        admission = admission(true, owner, namespace);
      } else {
        waiting.putIfAbsent(owner, new Waiter(job, wake));
        admission = admission(false, owner, namespace);
      }
      wakes = handOver();
    } finally {
      lock.unlock();
    }
    wakes.forEach(Runnable::run);
    return admission;
  }

  private Admission admission(boolean started, String owner, String namespace) {
    return new Admission(started, started ? 0 : position(owner), taken(), limit, held(namespace), share);
  }

  /** Counts a Job found running (after a restart, say) against the limit. */
  public void running(String owner, String job) {
    lock.lock();
    try {
      running.put(job, owner);
      reserved.remove(job);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Frees the slots of the owner's builds that no longer run as far as the cluster knows: Jobs deleted by hand, or
   * never created because the create failed. {@code live} names the owner's Jobs that exist and have not finished.
   */
  public void settle(String owner, Set<String> live) {
    release(() -> running.entrySet().removeIf(e -> e.getValue().equals(owner) && !live.contains(e.getKey())));
  }

  /** A deleted owner: it leaves the queue, and the slots of its builds are free. */
  public void forget(String owner) {
    release(() -> {
      Waiter waiter = waiting.remove(owner);
      if (waiter != null) {
        reserved.remove(waiter.job());
      }
      running.values().removeIf(owner::equals);
    });
  }

  /** The Job finished, failed or is gone: its slot goes to the next waiter. */
  public void finished(String job) {
    release(() -> {
      running.remove(job);
      reserved.remove(job);
    });
  }

  /** The owner no longer wants a build that has not started: it leaves the queue and frees any reserved slot. */
  public void withdraw(String owner) {
    release(() -> {
      Waiter waiter = waiting.remove(owner);
      if (waiter != null) {
        reserved.remove(waiter.job());
      }
    });
  }

  /**
   * Whether {@code owner} waits for a slot for {@code job}, with none handed to it yet: then the Job does not exist,
   * as only an admitted build creates one.
   */
  public boolean waits(String owner, String job) {
    lock.lock();
    try {
      Waiter waiter = waiting.get(owner);
      return waiter != null && waiter.job().equals(job) && !reserved.contains(job) && !running.containsKey(job);
    } finally {
      lock.unlock();
    }
  }

  /** Builds waiting for a slot. */
  public int depth() {
    lock.lock();
    try {
      return waiting.size() - reservedWaiters();
    } finally {
      lock.unlock();
    }
  }

  /** Builds running now. */
  public int runningCount() {
    lock.lock();
    try {
      return running.size();
    } finally {
      lock.unlock();
    }
  }

  public int limit() {
    return limit;
  }

  /** The most slots one namespace may hold: all but one when there are several. */
  public int share() {
    return share;
  }

  private void release(Runnable change) {
    List<Runnable> wakes;
    lock.lock();
    try {
      change.run();
      wakes = handOver();
    } finally {
      lock.unlock();
    }
    wakes.forEach(Runnable::run); // outside the lock: a wake-up may call straight back into the queue
  }

  /**
   * Reserves free slots for waiters, each to the waiter whose namespace holds the fewest slots (the earliest
   * arrival among equals), skipping namespaces at their share; returns their wake-ups.
   */
  private List<Runnable> handOver() {
    List<Runnable> wakes = new ArrayList<>();
    while (free() > 0) {
      Waiter next = null;
      int fewest = Integer.MAX_VALUE;
      for (Waiter waiter : waiting.values()) {
        int held = held(namespace(waiter.job()));
        if (!reserved.contains(waiter.job()) && held < share && held < fewest) {
          next = waiter;
          fewest = held;
        }
      }
      if (next == null) {
        break;
      }
      reserved.add(next.job());
      wakes.add(next.wake());
    }
    return wakes;
  }

  /** Slots a namespace holds: its running builds and the slots reserved for its waiters. */
  private int held(String namespace) {
    String prefix = namespace + "/";
    int held = 0;
    for (String job : running.keySet()) {
      held += job.startsWith(prefix) ? 1 : 0;
    }
    for (String job : reserved) {
      held += job.startsWith(prefix) ? 1 : 0;
    }
    return held;
  }

  private static String namespace(String job) {
    int slash = job.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("a build is named namespace/job, not `" + job + "`");
    }
    return job.substring(0, slash);
  }

  private int free() {
    return limit - taken();
  }

  private int taken() {
    return running.size() + reserved.size();
  }

  private int position(String owner) {
    int ahead = 0;
    for (Map.Entry<String, Waiter> entry : waiting.entrySet()) {
      if (entry.getKey().equals(owner)) {
        return ahead;
      }
      ahead++;
    }
    return ahead;
  }

  private int reservedWaiters() {
    int count = 0;
    for (Waiter waiter : waiting.values()) {
      if (reserved.contains(waiter.job())) {
        count++;
      }
    }
    return count;
  }
}
