package io.gitfn.packer;

import io.gitfn.image.LayerEntry;
import io.gitfn.image.LayerTooLargeException;
import io.gitfn.image.ReproducibleLayer;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A folder on disk as layer entries under a path in the image: folders, regular files and symbolic links. Links are
 * kept as links and never followed, so a link that points out of the folder (an install script may write anything)
 * puts nothing from outside into the layer. Modes are normalised as reproducible image builders do: folders 0755,
 * files 0755 when anyone may run them and 0644 otherwise, so the umask of the install does not move a digest; no
 * file is writable by the Function's user, who does not own it.
 *
 * <p>The folder was filled by a package manager running a tenant's install scripts, so it is bounded while it is
 * walked: more entries or bytes than the layer's limits stop the walk at once with {@link LayerTooLargeException},
 * and anything that is neither a folder, a file nor a link (a pipe, a socket, a device) is refused with its path.
 * A file's bytes are read only when the layer is written.
 */
public final class FolderEntries {

  private FolderEntries() {
  }

  /**
   * The entries of {@code folder} at {@code prefix} in the image, the folder itself included.
   *
   * @param prefix relative, such as {@code gitfn/function/node_modules}
   */
  public static List<LayerEntry> of(Path folder, String prefix, ReproducibleLayer.Limits limits) throws IOException {
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(folder + " is not a folder");
    }
    List<LayerEntry> entries = new ArrayList<>();
    long[] bytes = {0};
    Files.walkFileTree(folder, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        add(LayerEntry.directory(pathOf(dir), 0755));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String path = pathOf(file);
        if (attrs.isSymbolicLink()) {
          add(LayerEntry.symlink(path, Files.readSymbolicLink(file).toString()));
        } else if (attrs.isRegularFile()) {
          bytes[0] += attrs.size();
          if (bytes[0] > limits.maxBytes()) {
            throw new LayerTooLargeException(folder + " holds more than the layer's cap of " + limits.maxBytes()
                + " bytes");
          }
          add(LayerEntry.file(path, executable(file) ? 0755 : 0644, attrs.size(), () -> Files.newInputStream(file)));
        } else {
          throw new IOException(file + " is neither a folder, a file nor a symbolic link; a layer holds none");
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        throw e;
      }

      private void add(LayerEntry entry) throws LayerTooLargeException {
        entries.add(entry);
        if (entries.size() > limits.maxEntries()) {
          throw new LayerTooLargeException(folder + " holds more than the layer's cap of " + limits.maxEntries()
              + " entries");
        }
      }

      private String pathOf(Path path) {
        Path relative = folder.relativize(path);
        return relative.toString().isEmpty() ? prefix : prefix + "/" + relative.toString().replace('\\', '/');
      }
    });
    return entries;
  }

  private static boolean executable(Path file) throws IOException {
    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
    return permissions.contains(PosixFilePermission.OWNER_EXECUTE)
        || permissions.contains(PosixFilePermission.GROUP_EXECUTE)
        || permissions.contains(PosixFilePermission.OTHERS_EXECUTE);
  }
}
