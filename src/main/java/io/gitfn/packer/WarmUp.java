package io.gitfn.packer;

import io.gitfn.image.ReproducibleLayer;
import io.gitfn.registry.ImageAssembler;
import io.gitfn.registry.ImageName;
import io.gitfn.registry.RegistryAccess;
import io.gitfn.registry.RegistryFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What the pack container does while the install runs beside it: the work of a pack with nothing in it, so that
 * the JVM has loaded and linked the layer writer, the registry client and its HTTP stack (most of a pack's second on
 * a small node) before the install ends. It packs an empty layer to nowhere and asks the registry for the image the
 * pack builds on; nothing is pushed, and what it finds or fails at is dropped: the pack itself asks again and
 * reports.
 */
public final class WarmUp {

  /** The look-up's bound: it runs while the install does, and must not outlive the pack by much. */
  static final Duration DEADLINE = Duration.ofSeconds(5);

  private WarmUp() {}

  /** Starts the warm-up on a daemon thread; interrupt it when the install has ended. */
  public static Thread start(RegistryAccess access, ImageName from) {
    Thread thread = new Thread(() -> run(access, from), "pack-warm-up");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void run(RegistryAccess access, ImageName from) {
    ExecutorService pool = Executors.newSingleThreadExecutor(work -> {
      Thread thread = new Thread(work, "pack-warm-up-registry");
      thread.setDaemon(true);
      return thread;
    });
    try {
      ReproducibleLayer.write(List.of(), OutputStream.nullOutputStream(), DependencyImage.LIMITS);
      new ImageAssembler(access, "gitfn-pack", pool, DEADLINE).find(from);
    } catch (IOException | RegistryFailure | RuntimeException e) {
      // The pack makes the same calls for real, and says what fails.
    } finally {
      pool.shutdownNow();
    }
  }
}
