package io.gitfn.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ElasticPoolTest {

  private final ThreadPoolExecutor pool = ElasticPool.create(4, r -> {
    Thread t = new Thread(r);
    t.setDaemon(true);
    return t;
  });

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void tasksOneAfterAnotherShareOneThread() throws Exception {
    for (int i = 0; i < 50; i++) {
      pool.submit(() -> { }).get(5, TimeUnit.SECONDS);
      awaitIdle();
    }

    assertThat(pool.getLargestPoolSize()).isEqualTo(1);
  }

  @Test
  void busyThreadsMakeItGrowUpToItsMaximumAndTheRestWaitsForTheFirstFreeOne() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(4);
    List<Future<?>> tasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      tasks.add(pool.submit(() -> {
        started.countDown();
        release.await();
        return null;
      }));
    }

    assertThat(started.await(5, TimeUnit.SECONDS)).as("four slow tasks run at once").isTrue();
    assertThat(pool.getPoolSize()).isEqualTo(4);
    assertThat(pool.getQueue()).hasSize(2);
    release.countDown();
    for (Future<?> task : tasks) {
      task.get(5, TimeUnit.SECONDS);
    }
    assertThat(pool.getLargestPoolSize()).isEqualTo(4);
  }

  /** The task has returned, but its thread may not count as idle yet. */
  private void awaitIdle() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (pool.getActiveCount() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }
}
