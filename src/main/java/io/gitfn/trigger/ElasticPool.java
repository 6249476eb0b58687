package io.gitfn.trigger;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
    ThreadPoolExecutor pool = new ThreadPoolExecutor(0, max, 1, TimeUnit.MINUTES, queue, threads,
        (task, executor) -> {
          // Every thread is busy and there may be no more: the task waits for the next free one.
          if (!executor.isShutdown()) {
            queue.force(task);
          }
        });
    queue.pool = pool;
    return pool;
  }

  /** Refuses a task while the pool could start a thread for it and none is idle: the pool then starts one. */
  private static final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {

    private volatile ThreadPoolExecutor pool;

    @Override
    public boolean offer(Runnable task) {
      ThreadPoolExecutor executor = pool;
      if (executor != null && executor.getPoolSize() < executor.getMaximumPoolSize()
          && executor.getActiveCount() >= executor.getPoolSize()) {
        return false;
      }
      return super.offer(task);
    }

    void force(Runnable task) {
      super.offer(task);
    }
  }
}
