package io.gitfn.trigger;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool of up to {@code max} threads that starts a thread only when every running one is busy, and lets idle ones
 * end. A plain {@link ThreadPoolExecutor} with {@code max} core threads starts a new thread for each task until it
 * has {@code max}, busy or not: with a thousand mirrors checked every minute that kept all 64 check threads alive
 * while two or three were ever at work, each with its stack and a share of glibc's arenas. Up to {@code max} slow
 * servers can still each hold a thread without delaying any other check.
 */
final class ElasticPool {

  private ElasticPool() {}

  static ThreadPoolExecutor create(int max, ThreadFactory threads) {
    GrowFirstQueue queue = new GrowFirstQueue();
    ElasticExecutor pool = new ElasticExecutor(max, queue, threads);
    queue.pool = pool;
    return pool;
  }

  /**
   * Counts the tasks submitted and not yet finished, the one being submitted included. The pool's active count,
   * which this used before, misses a new thread for a moment: {@code ThreadPoolExecutor} unlocks a worker before it
   * locks it again to run its first task, and a task submitted in between was queued behind that thread while the
   * pool could have grown. On a loaded CI machine ElasticPoolTest saw fewer than four of its slow tasks start.
   */
  private static final class ElasticExecutor extends ThreadPoolExecutor {

    private final AtomicInteger unfinished = new AtomicInteger();

    ElasticExecutor(int max, GrowFirstQueue queue, ThreadFactory threads) {
      super(0, max, 1, TimeUnit.MINUTES, queue, threads, (task, executor) -> {
        // Every thread is busy and there may be no more: the task waits for the next free one.
        if (!executor.isShutdown()) {
          queue.force(task);
        }
      });
    }

    @Override
    public void execute(Runnable task) {
      unfinished.incrementAndGet();
      try {
        super.execute(task);
      } catch (RuntimeException e) {
        unfinished.decrementAndGet();
        throw e;
      }
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
      unfinished.decrementAndGet();
    }
  }

  /** Queues a task only when a thread is free for it, or none may be started: otherwise the pool starts one. */
  private static final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {

    private volatile ElasticExecutor pool;

    @Override
    public boolean offer(Runnable task) {
      ElasticExecutor executor = pool;
      if (executor != null && executor.unfinished.get() > executor.getPoolSize()
          && executor.getPoolSize() < executor.getMaximumPoolSize()) {
        return false;
      }
      return super.offer(task);
    }

    void force(Runnable task) {
      super.offer(task);
    }
  }
}
