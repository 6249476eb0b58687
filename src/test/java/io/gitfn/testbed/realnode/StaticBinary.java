package io.gitfn.testbed.realnode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A C program of the test resources compiled with {@code gcc -static}: it needs nothing in its image but
 * itself, so images need no base and no registry (the pause image, the tests' tiny servers).
 */
public final class StaticBinary {

  private StaticBinary() {}

  /**
   * Compiles the resource {@code source} next to {@code anchor} (for example {@code "pause.c"} beside
   * {@link StaticBinary}) into {@code output}, and returns it.
   */
  public static Path compile(Class<?> anchor, String source, Path output) {
    try (InputStream in = anchor.getResourceAsStream(source)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + source + " beside " + anchor.getName());
      }
      Files.createDirectories(output.toAbsolutePath().getParent());
      Path c = output.resolveSibling(output.getFileName() + ".c");
      Files.write(c, in.readAllBytes());
      Process gcc = new ProcessBuilder("gcc", "-static", "-Os", "-s", "-Wall", "-o", output.toString(), c.toString())
          .redirectErrorStream(true)
          .start();
      String messages = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
        throw new IllegalStateException(
            "gcc -static could not compile " + source + " (the packages gcc and libc6-dev bring it):\n" + messages);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot compile " + source + ": is gcc installed?", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while compiling " + source, e);
    }
  }
}
