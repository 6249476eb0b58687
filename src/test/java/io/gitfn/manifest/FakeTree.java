package io.gitfn.manifest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** An in-memory {@link SourceTree}: files and symlinks by path, as a Git commit would hold them. */
final class FakeTree implements SourceTree {

  private final Map<String, byte[]> files = new TreeMap<>();
  private final Map<String, String> links = new TreeMap<>();

  static FakeTree of(String... pathsAndTexts) {
    FakeTree tree = new FakeTree();
    for (int i = 0; i < pathsAndTexts.length; i += 2) {
      tree.file(pathsAndTexts[i], pathsAndTexts[i + 1]);
    }
    return tree;
  }

  FakeTree file(String path, String text) {
    files.put(path, text.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  FakeTree bytes(String path, byte[] content) {
    files.put(path, content);
    return this;
  }

  FakeTree symlink(String path, String target) {
    links.put(path, target);
    files.put(path, target.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  @Override
  public List<String> list(String folder, int limit) throws IOException {
    List<String> under = files.keySet().stream()
        .filter(path -> folder.isEmpty() || path.startsWith(folder + "/"))
        .limit(limit + 1L)
        .toList();
    if (under.isEmpty() && !folder.isEmpty()) {
      throw new NoSuchFileException(folder, null, "there is no folder '" + folder + "'");
    }
    return under;
  }

  @Override
  public byte[] read(String path) throws IOException {
    byte[] content = files.get(path);
    if (content == null) {
      throw new NoSuchFileException(path);
    }
    return content;
  }

  @Override
  public Optional<String> symlinkTarget(String path) {
    return Optional.ofNullable(links.get(path));
  }
}
