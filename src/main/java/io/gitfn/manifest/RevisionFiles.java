package io.gitfn.manifest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The files under the repository's path that the reader may use: not ignored, and read as text. A symlink is
 * followed only while it stays under the path; one that leaves it is an error, never read.
 */
final class RevisionFiles {

  private static final int MAX_LINK_HOPS = 8;

  private final SourceTree tree;
  private final String root;
  private final Set<String> files;
  private final Map<String, String> links = new HashMap<>();
  private final List<ManifestError> errors;
  private final long maxReadBytes;
  private long read;

  RevisionFiles(SourceTree tree, String root, List<String> files, long maxReadBytes, List<ManifestError> errors)
      throws IOException {
    this.tree = tree;
    this.root = root;
    this.maxReadBytes = maxReadBytes;
    this.files = new TreeSet<>(files);
    this.errors = errors;
    for (String file : files) {
      tree.symlinkTarget(file).ifPresent(target -> links.put(file, target));
    }
    for (Map.Entry<String, String> link : links.entrySet()) {
      if (step(link.getKey(), link.getValue()).isEmpty()) {
        report(leaves(link.getKey(), link.getValue()));
      }
    }
  }

  /** The usable files, sorted. */
  Set<String> all() {
    return files;
  }

  boolean has(String path) {
    return files.contains(path);
  }

  /** The text of {@code path}, or empty with an error if it is a symlink out of the path or not UTF-8. */
  Optional<String> text(String path) throws IOException {
    Optional<String> resolved = resolve(path);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    if (read > maxReadBytes) {
      return Optional.empty(); // reported once, when the budget ran out
    }
    byte[] bytes = tree.read(resolved.get());
    read += bytes.length;
    if (read > maxReadBytes) {
      errors.add(new ManifestError(RepoPaths.shown(root), 0, null, "holds more than " + maxReadBytes
          + " bytes of files gitfn reads, the most it reads in one revision; ignore what is not Functions"
          + " (.gitfnignore) or point the path at a smaller folder"));
      return Optional.empty();
    }
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString());
    } catch (CharacterCodingException e) {
      errors.add(new ManifestError(path, 0, null, "is not UTF-8 text; gitfn reads only UTF-8 files here"));
      return Optional.empty();
    }
  }

  // The file a path stands for after following symlinks, or empty (and an error, once) when a link leaves the
  // path or points at nothing.
  private Optional<String> resolve(String path) {
    String current = path;
    for (int hop = 0; hop < MAX_LINK_HOPS; hop++) {
      String target = links.get(current);
      if (target == null) {
        return Optional.of(current);
      }
      Optional<String> next = step(current, target);
      if (next.isEmpty()) {
        report(leaves(current, target));
        return Optional.empty();
      }
      if (!links.containsKey(next.get()) && !files.contains(next.get())) {
        report(new ManifestError(current, 0, null, "is a symlink to `" + target + "`, which is not a file under `"
            + RepoPaths.shown(root) + "` (missing, a folder or ignored)"));
        return Optional.empty();
      }
      current = next.get();
    }
    report(new ManifestError(path, 0, null, "is a chain of more than " + MAX_LINK_HOPS + " symlinks"));
    return Optional.empty();
  }

  // Where one link points, or empty when that is outside the path.
  private Optional<String> step(String link, String target) {
    if (target.startsWith("/")) {
      return Optional.empty();
    }
    return RepoPaths.normalize(RepoPaths.join(RepoPaths.parent(link), target))
        .filter(next -> RepoPaths.within(next, root));
  }

  private ManifestError leaves(String link, String target) {
    return new ManifestError(link, 0, null, "is a symlink to `" + target + "`, which leaves `"
        + RepoPaths.shown(root) + "`; gitfn reads nothing outside the repository's path. Replace the link"
        + " with the file, or ignore it in .gitfnignore");
  }

  private void report(ManifestError error) {
    if (!errors.contains(error)) {
      errors.add(error);
    }
  }
}
