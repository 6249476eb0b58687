package io.gitfn.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM or Ctrl-C for a long-running command: the JVM's shutdown hook tells the command to stop, then waits (at
 * most 30 s) until the command says it has closed everything, so running work finishes and nothing is left half
 * done. The hook must not join the main thread: that thread ends in System.exit, which waits for the hooks.
 */
final class StopSignal {

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);

  private StopSignal() {
  }

  static StopSignal install(String threadName) {
    StopSignal signal = new StopSignal();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      signal.stopped.countDown();
      try {
        signal.closed.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, threadName));
    return signal;
  }

  /** Waits until the process is asked to stop. */
  void await() throws InterruptedException {
    stopped.await();
  }

  /** Everything is closed; the JVM may exit. */
  void closed() {
    closed.countDown();
  }
}
