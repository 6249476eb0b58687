package io.gitfn.source;

import io.gitfn.manifest.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A local folder as a {@link SourceTree}, for {@code gitfn render <folder>}: it lists what a commit of the folder
 * would hold (symlinks as links, not followed; no {@code .git}), and refuses any path that leaves the folder.
 */
public final class FolderTree implements SourceTree {

  private final Path root;

  public FolderTree(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      throw new NoSuchFileException(root.toString(), null, "is not a folder");
    }
    this.root = root.toRealPath();
  }

  @Override
  public List<String> list(String folder, int limit) throws IOException {
    Path start = resolve(folder);
    if (!Files.isDirectory(start, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(folder, null, "there is no folder '" + folder + "' in " + root);
    }
    try (Stream<Path> paths = Files.walk(start)) {
      return paths
          .filter(path -> !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
          .map(this::relative)
          .filter(path -> !path.equals(".git") && !path.startsWith(".git/"))
          .limit(limit + 1L)
          .sorted()
          .toList();
    }
  }

  @Override
  public byte[] read(String path) throws IOException {
    Path file = resolve(path);
    if (Files.isSymbolicLink(file)) {
      // As in Git, a symlink's content is its target; the manifest reader decides whether to follow it.
      return Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8);
    }
    return Files.readAllBytes(file);
  }

  @Override
  public Optional<String> symlinkTarget(String path) throws IOException {
    Path file = resolve(path);
    return Files.isSymbolicLink(file)
        ? Optional.of(Files.readSymbolicLink(file).toString().replace('\\', '/'))
        : Optional.empty();
  }

  private Path resolve(String path) throws IOException {
    Path resolved = root.resolve(path == null ? "" : path).normalize();
    if (!resolved.startsWith(root)) {
      throw new IOException("path '" + path + "' leaves the folder " + root);
    }
    return resolved;
  }

  private String relative(Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }
}
