package io.gitfn.local;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Folders made once and then only read: a runtime with its packages, a Function's dependencies. A folder is
 * filled under a temporary name and renamed into place, so a half-done install is never used, and one that is in
 * place is never made again.
 */
final class Installs {

  /** Fills a new folder. */
  interface Filler {
    void fill(Path folder) throws LocalException, IOException;
  }

  private Installs() {
  }

  /** The folder {@code target}, filled by {@code filler} unless it exists already; returns true when it filled it. */
  static boolean ensure(Path target, Filler filler) throws LocalException {
    if (Files.isDirectory(target)) {
      return false;
    }
    Path partial = target.resolveSibling(target.getFileName() + ".partial-" + ProcessHandle.current().pid()
        + "-" + Thread.currentThread().getId());
    try {
      deleteRecursively(partial);
      Files.createDirectories(partial);
      filler.fill(partial);
      try {
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        deleteRecursively(partial); // another gitfn filled it meanwhile; theirs is as good
      } catch (IOException e) {
        if (!Files.isDirectory(target)) {
          throw e;
        }
        deleteRecursively(partial);
      }
      return true;
    } catch (IOException e) {
      throw new LocalException("cannot write " + target + ": " + e.getMessage());
    } finally {
      try {
        deleteRecursively(partial);
      } catch (IOException ignored) {
        // a leftover partial folder is only disk space; the next run replaces it
      }
    }
  }

  static void deleteRecursively(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
