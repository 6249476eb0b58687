package io.gitfn.source;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Sizes and deletion of mirror directories, tolerant of files that come and go while Git works in them. */
final class Directories {

  private Directories() {}

  /** The bytes of every file under {@code root}; zero when it does not exist. */
  static long sizeOf(Path root) {
    long[] total = {0};
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              total[0] += attributes.size();
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              // A temporary pack renamed or a loose object packed away between listing and reading.
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      return total[0];
    }
    return total[0];
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
            Files.deleteIfExists(directory);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
