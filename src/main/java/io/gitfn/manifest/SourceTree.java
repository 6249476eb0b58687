package io.gitfn.manifest;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The files of one revision as the manifest reader sees them: a Git commit, a local folder, or a test fake.
 * Paths are {@code /}-separated and relative to the tree's root.
 */
public interface SourceTree {

  /**
   * The files under {@code folder} ("" for the root), recursively, relative to the root, sorted; symlinks too. It
   * stops at {@code limit + 1} files, so that a caller can tell a folder over its limit without listing all of it.
   */
  List<String> list(String folder, int limit) throws IOException;

  /** Every file under {@code folder}. */
  default List<String> list(String folder) throws IOException {
    return list(folder, Integer.MAX_VALUE - 1);
  }

  /** The bytes of the file at {@code path}; a symlink is not followed (the manifest reader resolves it). */
  byte[] read(String path) throws IOException;

  /** The target of the symlink at {@code path}, as written in the link; empty when it is not a symlink. */
  Optional<String> symlinkTarget(String path) throws IOException;
}
