package io.gitfn.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM or Ctrl-C for a long-running command: the command is told to stop, closes everything (running work
 * finishes, nothing is left half done), and the process exits with the command's code.
 *
 * <p>TERM and INT are handled as signals, not only through a shutdown hook: once the JVM shuts down because of a
 * signal its exit status is 128+15 whatever the command returns, and Kubernetes, systemd and CI read a TERM'd
 * controller that stopped cleanly as one that failed. The shutdown hook stays for every other way the JVM ends; it
 * waits until the command says it has closed everything. It must not join the main thread: that thread ends in
 * System.exit, which waits for the hooks.
 */
final class StopSignal {

  private static final Logger log = LoggerFactory.getLogger(StopSignal.class);

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicBoolean failed = new AtomicBoolean();

  private StopSignal() {
  }

  /** A shutdown hook only: the process ends with the JVM's status for the signal. */
  static StopSignal install(String threadName) {
    return install(threadName, Duration.ofSeconds(30), false);
  }

  /**
   * @param closeTimeout how long the shutdown hook waits for the command to close everything
   * @param handleSignals whether TERM and INT end the process with the command's own exit code
   */
  static StopSignal install(String threadName, Duration closeTimeout, boolean handleSignals) {
    StopSignal signal = new StopSignal();
    for (String name : handleSignals ? new String[] {"TERM", "INT"} : new String[0]) {
      try {
        Signal.handle(new Signal(name), s -> {
          log.info("received SIG{}", name);
          signal.stopped.countDown();
        });
      } catch (IllegalArgumentException e) {
        log.debug("cannot handle SIG{} here; the shutdown hook stops the command", name);
      }
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      signal.stopped.countDown();
      try {
        signal.closed.await(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
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

  /** Something the command cannot recover from: it stops as if asked to, and exits with 1. */
  void fail() {
    failed.set(true);
    stopped.countDown();
  }

  /** The exit code once stopped: 0 when asked to stop, 1 after {@link #fail}. */
  int exitCode() {
    return failed.get() ? 1 : 0;
  }

  /** Everything is closed; the JVM may exit. */
  void closed() {
    closed.countDown();
  }
}
