package io.gitfn.manifest;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The files of one revision as the manifest reader sees them: a Git commit, a local folder, or a test fake.
 * Paths are {@code /}-separated and relative to the tree's root.
 */
public interface SourceTree {

  /** Every file under {@code folder} ("" for the root), recursively, relative to the root, sorted; symlinks too. */
  List<String> list(String folder) throws IOException;

  /** The bytes of the file at {@code path}; a symlink is not followed (the manifest reader resolves it). */
  byte[] read(String path) throws IOException;

  /** The target of the symlink at {@code path}, as written in the link; empty when it is not a symlink. */
  Optional<String> symlinkTarget(String path) throws IOException;
}
